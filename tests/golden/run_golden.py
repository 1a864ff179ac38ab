#!/usr/bin/env python3
"""Golden tests for helionc: inputs next to the exact output they must produce.

Categories (one ctest test each):

  ir           tests/golden/ir/NAME.py           -> NAME.ir          (`--emit ir -o -`, exit 0)
  pallas       tests/golden/pallas/NAME.py       -> NAME_pallas.py   (the module, exit 0;
               with tests/golden/pallas/NAME.yaml passed as `--config` when it exists)
  reference    tests/golden/reference/NAME.py    -> NAME_reference.py (`--emit reference -o -`,
               exit 0)
  report       tests/golden/report/NAME.py       -> NAME.report      (`--emit report -o -`,
               exit 0; NAME.yaml as `--config` when it exists; `--shapes` in RUN-ARGS)
  diagnostics  tests/golden/diagnostics/fail_NAME.py and/or fail_NAME.yaml -> fail_NAME.stderr
               (`--color never`, exit 1, nothing on stdout, no output file created); a
               `fail_NAME.yaml` without a `fail_NAME.py` is compiled against config_kernel.py
  properties   every ir/pallas/reference input compiles to byte-identical output twice; every fail_
               input leaves a pre-existing output file untouched and no stray files behind

An input may carry extra command-line flags in a first-line comment (`.py` or `.yaml`):
`# RUN-ARGS: --kernel foo`. helionc runs from the repository root with relative input paths,
so paths in the expected output are stable. A success that also prints diagnostics (warnings)
must match NAME.stderr next to it; a success with an empty stderr must have no NAME.stderr.

Regenerate the expected files (then review them as a diff):

  python3 tests/golden/run_golden.py --helionc build/src/driver/helionc --update

A run never bakes a crash into a golden: an exit status other than the expected one, or an
"internal error" in the diagnostics, fails the test with or without --update.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

GOLDEN_DIR = Path(__file__).resolve().parent
REPO_ROOT = GOLDEN_DIR.parent.parent
CATEGORIES = ("ir", "pallas", "reference", "report", "diagnostics", "properties")
CONFIG_KERNEL = "config_kernel.py"  # the kernel a lone fail_NAME.yaml is checked against
RUN_ARGS_PREFIX = "# RUN-ARGS:"
TIMEOUT_S = 60


@dataclass
class Case:
    """One golden input: what to run and which files hold the expected output."""

    name: str  # e.g. diagnostics/fail_syntax_unclosed_paren
    kernel: Path  # absolute
    config: Path | None = None
    extra_args: list[str] = field(default_factory=list)
    expected_out: Path | None = None  # stdout/module expectation (success cases)
    expected_err: Path | None = None  # diagnostics expectation


@dataclass
class Result:
    status: int
    stdout: str
    stderr: str


class Runner:
    def __init__(self, helionc: Path, update: bool, verbose: bool) -> None:
        self.helionc = helionc
        self.update = update
        self.verbose = verbose
        self.failures: list[str] = []
        self.passed = 0
        self.updated: list[Path] = []

    # ---- running helionc ------------------------------------------------------------------

    def run(self, case: Case, args: list[str]) -> Result:
        command = [str(self.helionc), rel(case.kernel), "--color", "never"]
        if case.config is not None:
            command += ["--config", rel(case.config)]
        command += case.extra_args + args
        env = dict(os.environ, LC_ALL="C", NO_COLOR="1")
        try:
            done = subprocess.run(command, cwd=REPO_ROOT, capture_output=True, env=env,
                                  timeout=TIMEOUT_S, check=False)
        except subprocess.TimeoutExpired:
            return Result(-1, "", f"helionc timed out after {TIMEOUT_S} s")
        return Result(done.returncode, done.stdout.decode("utf-8", "replace"),
                      done.stderr.decode("utf-8", "replace"))

    # ---- reporting ------------------------------------------------------------------------

    def fail(self, case: Case, why: str, detail: str = "") -> None:
        text = f"FAIL {case.name}: {why}"
        if detail:
            text += "\n" + detail.rstrip("\n")
        self.failures.append(text)
        print(text, flush=True)

    def ok(self, case: Case) -> None:
        self.passed += 1
        if self.verbose:
            print(f"ok   {case.name}", flush=True)

    def crashed(self, case: Case, result: Result, expected_status: int) -> bool:
        """Fails the case when helionc crashed or exited with the wrong status."""
        if "internal error" in result.stderr:
            self.fail(case, f"helionc reported an internal error (exit {result.status})",
                      result.stderr)
            return True
        if result.status != expected_status:
            self.fail(case, f"exit status {result.status}, expected {expected_status}",
                      result.stderr)
            return True
        return False

    def compare(self, case: Case, expected_path: Path, actual: str) -> bool:
        """Compares actual text with an expected file, or rewrites it under --update."""
        if self.update:
            if not expected_path.exists() or expected_path.read_text() != actual:
                expected_path.write_text(actual)
                self.updated.append(expected_path)
            return True
        if not expected_path.exists():
            self.fail(case, f"expected file {rel(expected_path)} is missing (run with --update "
                      "to create it, then review it)")
            return False
        expected = expected_path.read_text()
        if expected == actual:
            return True
        diff = difflib.unified_diff(expected.splitlines(keepends=True),
                                    actual.splitlines(keepends=True),
                                    fromfile=rel(expected_path), tofile="actual")
        self.fail(case, f"output differs from {rel(expected_path)}", "".join(diff))
        return False

    def compare_optional_stderr(self, case: Case, stderr: str) -> bool:
        """A success's diagnostics must match NAME.stderr; no diagnostics, no such file."""
        assert case.expected_err is not None
        if stderr:
            return self.compare(case, case.expected_err, stderr)
        if case.expected_err.exists():
            if self.update:
                case.expected_err.unlink()
                self.updated.append(case.expected_err)
                return True
            self.fail(case, f"no diagnostics printed, but {rel(case.expected_err)} expects some")
            return False
        return True

    # ---- the categories -------------------------------------------------------------------

    def check_ir(self, case: Case, emit: str = "ir") -> None:
        result = self.run(case, ["--emit", emit, "-o", "-"])
        if self.crashed(case, result, 0):
            return
        assert case.expected_out is not None
        good = self.compare(case, case.expected_out, result.stdout)
        good = self.compare_optional_stderr(case, result.stderr) and good
        if good:
            self.ok(case)

    def check_pallas(self, case: Case) -> None:
        result = self.run(case, ["-o", "-"])
        if self.crashed(case, result, 0):
            return
        assert case.expected_out is not None
        good = self.compare(case, case.expected_out, result.stdout)
        good = self.compare_optional_stderr(case, result.stderr) and good
        if good:
            self.ok(case)

    def check_diagnostics(self, case: Case) -> None:
        with tempfile.TemporaryDirectory(prefix="helionc-golden-") as scratch:
            output = Path(scratch) / "out_pallas.py"
            result = self.run(case, ["-o", str(output)])
            if result.status == 0:
                self.fail(case, "a fail_ input compiled without errors", result.stderr)
                return
            if self.crashed(case, result, 1):
                return
            good = True
            if output.exists() or any(Path(scratch).iterdir()):
                self.fail(case, "a failing compile created files: "
                          + ", ".join(p.name for p in Path(scratch).iterdir()))
                good = False
            if result.stdout:
                self.fail(case, "a failing compile printed to stdout", result.stdout)
                good = False
            if not result.stderr.strip():
                self.fail(case, "a failing compile printed no diagnostics")
                good = False
            assert case.expected_err is not None
            good = self.compare(case, case.expected_err, result.stderr) and good
        if good:
            self.ok(case)

    def check_deterministic(self, case: Case, emit: list[str]) -> None:
        """The same input compiled twice, to two files and to stdout, gives the same bytes."""
        with tempfile.TemporaryDirectory(prefix="helionc-golden-") as scratch:
            outputs = [Path(scratch) / "a_out.py", Path(scratch) / "b_out.py"]
            texts = []
            for output in outputs:
                result = self.run(case, emit + ["-o", str(output)])
                if self.crashed(case, result, 0):
                    return
                if not output.exists():
                    self.fail(case, f"exit 0 but {output.name} was not written")
                    return
                texts.append(output.read_bytes())
            result = self.run(case, emit + ["-o", "-"])
            if self.crashed(case, result, 0):
                return
            texts.append(result.stdout.encode("utf-8"))
            if not (texts[0] == texts[1] == texts[2]):
                self.fail(case, "two compiles of the same input differ (files a/b, stdout): "
                          f"{[len(t) for t in texts]} bytes")
                return
            leftovers = sorted(p.name for p in Path(scratch).iterdir()
                               if p.name not in {o.name for o in outputs})
            if leftovers:
                self.fail(case, f"stray files left beside the output: {leftovers}")
                return
        self.ok(case)

    def check_untouched(self, case: Case) -> None:
        """A failing compile leaves an existing output file as it was, and adds no files."""
        sentinel = b"# a file that a failing compile must not touch\n"
        with tempfile.TemporaryDirectory(prefix="helionc-golden-") as scratch:
            output = Path(scratch) / "out_pallas.py"
            output.write_bytes(sentinel)
            os.utime(output, (1_000_000_000, 1_000_000_000))
            result = self.run(case, ["-o", str(output)])
            if result.status == 0:
                self.fail(case, "a fail_ input compiled without errors")
                return
            if self.crashed(case, result, 1):
                return
            if output.read_bytes() != sentinel or output.stat().st_mtime != 1_000_000_000:
                self.fail(case, "a failing compile changed the existing output file")
                return
            others = sorted(p.name for p in Path(scratch).iterdir() if p != output)
            if others:
                self.fail(case, f"a failing compile left files behind: {others}")
                return
        self.ok(case)


# ---- discovering the cases ------------------------------------------------------------------


def rel(path: Path) -> str:
    try:
        return str(path.relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def run_args(path: Path | None) -> list[str]:
    if path is None or not path.exists():
        return []
    with path.open(encoding="utf-8") as f:
        first = f.readline().strip()
    if first.startswith(RUN_ARGS_PREFIX):
        return shlex.split(first[len(RUN_ARGS_PREFIX):])
    return []


def success_cases(category: str) -> list[Case]:
    folder = GOLDEN_DIR / category
    cases = []
    for kernel in sorted(folder.glob("*.py")):
        if kernel.name.endswith(("_pallas.py", "_reference.py")):
            continue  # an expected module
        config = kernel.with_suffix(".yaml")
        config = config if config.exists() else None
        out_suffix = {"ir": ".ir", "report": ".report", "reference": "_reference.py"}.get(
            category, "_pallas.py")
        cases.append(Case(
            name=f"{category}/{kernel.stem}", kernel=kernel, config=config,
            extra_args=run_args(kernel) + run_args(config),
            expected_out=folder / (kernel.stem + out_suffix),
            expected_err=folder / (kernel.stem + ".stderr")))
    return cases


def diagnostic_cases() -> list[Case]:
    folder = GOLDEN_DIR / "diagnostics"
    stems = sorted({p.stem for p in folder.glob("fail_*.py")} |
                   {p.stem for p in folder.glob("fail_*.yaml")})
    cases = []
    for stem in stems:
        kernel = folder / f"{stem}.py"
        config = folder / f"{stem}.yaml"
        config = config if config.exists() else None
        if not kernel.exists():
            kernel = folder / CONFIG_KERNEL
        cases.append(Case(
            name=f"diagnostics/{stem}", kernel=kernel, config=config,
            extra_args=(run_args(kernel) if kernel.name != CONFIG_KERNEL else [])
            + run_args(config),
            expected_err=folder / f"{stem}.stderr"))
    return cases


def stale_expectations() -> list[str]:
    """Expected files whose input is gone: they would otherwise rot unnoticed."""
    stale = []
    for category, suffix in (("ir", ".ir"), ("pallas", "_pallas.py"), ("report", ".report"),
                             ("reference", "_reference.py")):
        folder = GOLDEN_DIR / category
        for expected in folder.glob("*" + suffix):
            stem = expected.name[: -len(suffix)]
            if not (folder / f"{stem}.py").exists():
                stale.append(rel(expected))
        for expected in folder.glob("*.stderr"):
            if not (folder / f"{expected.stem}.py").exists():
                stale.append(rel(expected))
    folder = GOLDEN_DIR / "diagnostics"
    for expected in folder.glob("*.stderr"):
        if not ((folder / f"{expected.stem}.py").exists()
                or (folder / f"{expected.stem}.yaml").exists()):
            stale.append(rel(expected))
    for name in folder.glob("*.py"):
        if not name.name.startswith("fail_") and name.name != CONFIG_KERNEL:
            stale.append(f"{rel(name)} (inputs here must be named fail_*)")
    return sorted(stale)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--helionc", required=True, type=Path, help="the helionc binary")
    parser.add_argument("--category", action="append", choices=CATEGORIES,
                        help="run only this category (repeatable; default: all)")
    parser.add_argument("--update", action="store_true",
                        help="rewrite the expected files from helionc's current output")
    parser.add_argument("-k", dest="pattern", default="",
                        help="run only cases whose name contains this text")
    parser.add_argument("-v", "--verbose", action="store_true", help="print passing cases too")
    options = parser.parse_args()

    helionc = options.helionc.resolve()
    if not helionc.is_file() or not os.access(helionc, os.X_OK):
        print(f"run_golden: {helionc} is not an executable file", file=sys.stderr)
        return 2
    runner = Runner(helionc, options.update, options.verbose)
    categories = options.category or list(CATEGORIES)

    def selected(cases: list[Case]) -> list[Case]:
        return [c for c in cases if options.pattern in c.name]

    counts = {}
    for category in categories:
        before = (runner.passed, len(runner.failures))
        if category in ("ir", "pallas", "reference", "report"):
            cases = selected(success_cases(category))
            for case in cases:
                if category == "pallas":
                    runner.check_pallas(case)
                else:
                    runner.check_ir(case, category)
        elif category == "diagnostics":
            cases = selected(diagnostic_cases())
            for case in cases:
                runner.check_diagnostics(case)
        else:
            cases = []
            for kind, emit in (("ir", ["--emit", "ir"]), ("pallas", []),
                               ("reference", ["--emit", "reference"])):
                for case in selected(success_cases(kind)):
                    case.name = f"properties/deterministic/{case.name}"
                    runner.check_deterministic(case, emit)
                    cases.append(case)
            for case in selected(diagnostic_cases()):
                case.name = f"properties/untouched/{case.name}"
                runner.check_untouched(case)
                cases.append(case)
        if not cases and not options.pattern:
            runner.failures.append(f"FAIL {category}: no inputs found")
            print(runner.failures[-1])
        counts[category] = (runner.passed - before[0], len(runner.failures) - before[1])

    if not options.pattern and not options.update:
        for path in stale_expectations():
            if any(f"/{c}/" in f"/{path}" for c in categories):
                runner.failures.append(f"FAIL stale: {path} has no input")
                print(runner.failures[-1])

    for path in runner.updated:
        print(f"updated {rel(path)}")
    summary = ", ".join(f"{c}: {p} passed, {f} failed" for c, (p, f) in counts.items())
    print(f"golden: {summary}")
    return 1 if runner.failures else 0


if __name__ == "__main__":
    sys.exit(main())
