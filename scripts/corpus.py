#!/usr/bin/env python3
"""How many Helion kernels of a Helion checkout helionc compiles, and why the others fail.

    python3 scripts/corpus.py GIT_DIR [--helionc PATH] [--rev HEAD] [--top 40] [--file-table]

GIT_DIR is a git directory of the pytorch/helion repository (a bare mirror is enough: files are
read with `git show REV:PATH`). Every function decorated with `helion.kernel`, `helion.jit` or
`helion.aot_kernel` in `examples/*.py` and `test/*.py`, at any nesting depth, is written to a
file of its own in a temporary directory: the module's top-level imports, assignments,
helper functions and other top-level kernels (a kernel may call one, as a combine function of
`hl.associative_scan`), but not its classes or its `__main__` block, then the kernel, dedented; a kernel defined inside a function (a test method, a kernel factory) comes with the
outermost such function, dedented and unchanged, so that the names the kernel reads from it
(`cfg = helion.Config(...)` before the `def`) are there as in Helion. helionc compiles each
file with `--kernel NAME` (helpers may define kernels of their own, which are then left out when
they share the name); a kernel counts as compiled when helionc exits 0. The
first error of each failing kernel is tallied, with quoted names blanked so that one feature
gathers one line. Nothing is written outside the temporary directory.
"""

from __future__ import annotations

import argparse
import ast
import collections
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile
import textwrap

KERNEL_DECORATORS = {"kernel", "jit", "aot_kernel"}


def git(git_dir: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", git_dir, *args], check=True,
                          capture_output=True, text=True).stdout


def dotted(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        return dotted(node.func)
    if isinstance(node, ast.Attribute):
        return f"{dotted(node.value)}.{node.attr}"
    if isinstance(node, ast.Name):
        return node.id
    return ""


def is_kernel(fn: ast.AST) -> bool:
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    for decorator in fn.decorator_list:
        name = dotted(decorator)
        head, _, last = name.rpartition(".")
        if last in KERNEL_DECORATORS and head in ("helion", "helion.runtime.kernel", ""):
            return True
    return False


def segment(lines: list[str], node: ast.AST) -> str:
    return textwrap.dedent("".join(lines[first_line(node) - 1:node.end_lineno])) + "\n"


def outermost_function(node: ast.AST, parents: dict[ast.AST, ast.AST]) -> ast.AST | None:
    """The outermost function around `node` (a class is no scope for its methods' bodies)."""
    found = None
    while node in parents:
        node = parents[node]
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            found = node
    return found


def first_line(node: ast.AST) -> int:
    """The line of a function's first decorator (its own line without one): Python's
    `co_firstlineno`, which scripts/corpus_calls.py records a kernel by."""
    return min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", [])])


def kernel_files(source: str) -> list[tuple[str, int, str]]:
    """(kernel name, first_line, standalone file text) for every kernel of one module."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    lines = source.splitlines(keepends=True)
    prelude = []
    for stmt in tree.body:
        if isinstance(stmt, ast.ClassDef):
            continue
        if isinstance(stmt, ast.If) and "__name__" in ast.dump(stmt.test):
            continue
        if isinstance(stmt, (ast.Import, ast.ImportFrom, ast.Assign, ast.AnnAssign,
                             ast.FunctionDef, ast.If, ast.Try)):
            kernels = {node.name for node in ast.walk(stmt) if is_kernel(node)}
            prelude.append((kernels, segment(lines, stmt)))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    files = []
    for node in ast.walk(tree):
        if not is_kernel(node):
            continue
        # Helpers defining a kernel of the same name (a kernel factory, the function around
        # this kernel) are left out: `--kernel NAME` would compile theirs too.
        head = "".join(text for kernels, text in prelude if node.name not in kernels)
        scope = outermost_function(node, parents)
        files.append((node.name, first_line(node), head + "\n\n" + segment(lines, scope or node)))
    return files


ERROR = re.compile(r"^[^\n:]*:\d+:\d+: error: (.*)$", re.M)


def first_error(stderr: str, keep_names: bool) -> str:
    match = ERROR.search(stderr)
    text = match.group(1) if match else (stderr.strip().splitlines() or ["(no message)"])[0]
    if not keep_names:  # names and expressions vary; the feature does not
        text = re.sub(r"\b\d+\b", "N", re.sub(r"`[^`]*`", "`_`", text))
    return text[:150]


def compile_one(helionc: str, path: str, kernel: str, keep_names: bool) -> tuple[int, str]:
    # By name: helpers of the prelude and the function around a kernel may define others.
    result = subprocess.run([helionc, path, "-o", path + ".out.py", "--color", "never",
                             "--kernel", kernel],
                            capture_output=True, text=True, timeout=60)
    return result.returncode, "" if result.returncode == 0 else first_error(result.stderr,
                                                                            keep_names)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir")
    parser.add_argument("--helionc", default=os.environ.get("HELIONC", "build/src/driver/helionc"))
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--top", type=int, default=40, help="first-error groups to print")
    parser.add_argument("--file-table", action="store_true", help="kernels compiling per file")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", help="only files whose path contains this")
    parser.add_argument("--keep-names", action="store_true", help="do not blank quoted names")
    parser.add_argument("--keep", help="write the kernel files and modules here (a new folder)")
    args = parser.parse_args()

    rev = git(args.git_dir, "rev-parse", "--short=8", args.rev).strip()
    paths = [p for p in git(args.git_dir, "ls-tree", "--name-only", args.rev,
                            "examples/", "test/").split()
             if p.endswith(".py") and (not args.only or args.only in p)]
    per_file: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0])
    errors: collections.Counter[str] = collections.Counter()
    crashes = []
    if args.keep:
        os.makedirs(args.keep)
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        jobs = []
        for path in paths:
            source = git(args.git_dir, "show", f"{args.rev}:{path}")
            for index, (name, _, text) in enumerate(kernel_files(source)):
                file = os.path.join(tmp, f"{path.replace('/', '_')[:-3]}__{index}_{name}.py")
                with open(file, "w") as out:
                    out.write(text)
                jobs.append((path, name, file))
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            results = pool.map(
                lambda job: compile_one(args.helionc, job[2], job[1], args.keep_names), jobs)
            for (path, name, _), (rc, error) in zip(jobs, results):
                per_file[path][1] += 1
                if rc == 0:
                    per_file[path][0] += 1
                elif rc == 1:
                    errors[error] += 1
                else:
                    crashes.append(f"{path}:{name}: exit {rc}: {error}")

    total = sum(t for _, t in per_file.values())
    ok = sum(c for c, _ in per_file.values())

    def share(prefix: str) -> str:
        c = sum(v[0] for p, v in per_file.items() if p.startswith(prefix))
        t = sum(v[1] for p, v in per_file.items() if p.startswith(prefix))
        return f"{c}/{t} ({100 * c / max(t, 1):.0f} %)"

    print(f"pytorch/helion {rev}: {ok}/{total} kernels compile ({100 * ok / max(total, 1):.0f} %); "
          f"examples/ {share('examples/')}, test/test_pallas.py {share('test/test_pallas.py')}")
    if args.file_table:
        for path, (c, t) in sorted(per_file.items()):
            print(f"  {path}: {c}/{t}")
    for line in crashes:
        print(f"  CRASH {line}")
    print(f"first errors of the {total - ok} that do not compile:")
    for text, count in errors.most_common(args.top):
        print(f"{count:6d}  {text}")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
