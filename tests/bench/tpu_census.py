"""Which samples' default modules the real TPU compiler refuses, per generation, and why.

Every sample's module compiled without --config is compiled by libtpu (compile_for_tpu) on every
call of its .shapes file, for each generation asked for. Refusals are grouped by the compiler's
message (`classify`), so a table per generation says which classes are left:

    .venv/bin/python tests/bench/tpu_census.py -g tpu-v4 -g tpu-v5e [--rows DIR] [-k matmul] [-j 2]

`--rows DIR` writes DIR/<generation>.rows (`class<TAB>case<TAB>first line of the message`) for
comparing two runs. Samples whose host code needs array values (`host_values`) are not
traceable and are left out; host-only samples are compiled (they hold no Mosaic kernel).
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import importlib.util
import multiprocessing
import os
import pathlib
import re
import subprocess
import sys
import tempfile

os.environ.setdefault("JAX_PLATFORMS", "cpu")
HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "e2e"))

from e2e_support import (  # noqa: E402
    PROJECT_ROOT,
    SAMPLES_DIR,
    TPU_TOPOLOGIES,
    helionc_path,
    read_shapes_file,
)

# (class, pattern): the first pattern found in the message names the class. Generation-specific
# messages come first: they are what a generation adds to the others' classes.
CLASSES = (
    ("sublane gather (generation)", r"Sublane gather not supported"),
    ("unpack_subelements", r"unpack_subelements"),
    ("matmul operand types", r"(?i)matmul.*(operand|type)|unsupported .*matmul|MatmulOp"),
    ("shape cast", r"unsupported shape cast"),
    ("unaligned tiled offsets", r"Offsets along tiled dimensions must be aligned"),
    ("dynamic offset word", r"dynamic offset times the element size"),
    ("E2003 index mult of 8", r"cannot statically prove that index"),
    ("invalid input layout", r"[Ii]nvalid input layout"),
    ("invalid relayout", r"[Ii]nvalid relayout|relayout"),
    ("scoped vmem oom", r"ScopedVmemOom|scoped vmem|Scoped allocation"),
    ("vmem oom", r"Ran out of memory in memory space vmem|would exceed memory .*space=vmem"),
    ("E2002 misaligned block", r"E2002"),
    ("invalid vector type for load", r"Invalid vector type for load"),
    ("sublane broadcast", r"[Ss]ublane broadcast"),
    ("gather", r"[Gg]ather"),
    ("not implemented", r"[Nn]ot implemented|Unimplemented|unimplemented"),
)


def classify(message: str) -> str:
    for name, pattern in CLASSES:
        if re.search(pattern, message):
            return name
    found = re.search(r"(Mosaic failed to compile TPU kernel: [^\n]{0,80}|[A-Za-z]+Error: [^\n]{0,100})", message)
    return "other: " + (found.group(1) if found else message[:100].replace("\n", " "))


def first_line(message: str) -> str:
    """The line of the message that says why (Mosaic's message follows its header line)."""
    lines = [l.strip() for l in message.splitlines() if l.strip()]
    for line in lines:
        if re.search(r"error|not supported|unsupported|Ran out|cannot|Could not|[Ii]nvalid|E20\d\d", line):
            return line[:300]
    return (lines[0] if lines else "")[:300]


def _compile_module(binary: pathlib.Path, name: str, outdir: pathlib.Path):
    out = outdir / f"{name}_pallas.py"
    proc = subprocess.run([str(binary), f"samples/{name}.py", "-o", str(out)], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=120)
    if proc.returncode != 0 or not out.is_file():
        return None, (proc.stderr + proc.stdout).strip()
    spec = importlib.util.spec_from_file_location(f"census.{name}", out)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module, ""


def census_of_sample(args) -> list[tuple[str, str, str, str]]:
    """(generation, case, class or "", first line) for every call of one sample's shapes."""
    name, generations, binary, messages = args
    from e2e_support import compile_for_tpu
    from references import SAMPLES
    from test_samples import Case

    spec = next(s for s in SAMPLES if s.name == name)
    calls = read_shapes_file(SAMPLES_DIR / f"{name}.shapes")
    with tempfile.TemporaryDirectory() as tmp:
        module, error = _compile_module(binary, name, pathlib.Path(tmp))
        rows = []
        for i, call in enumerate(calls):
            case_id = f"{name}-{call}"
            for generation in generations:
                if module is None:
                    rows.append((generation, case_id, "helionc refused", first_line(error)))
                    continue
                scalars = spec.scalars[i % len(spec.scalars)]
                case = Case(spec, call, scalars)
                fn = getattr(module, spec.kernel)
                try:
                    compile_for_tpu(lambda *a: fn(*a, **case.scalars, interpret=False), *case.structs(),
                                    generation=generation)
                    rows.append((generation, case_id, "", ""))
                except Exception as e:  # the compiler's refusal
                    message = f"{type(e).__name__}: {e}"
                    rows.append((generation, case_id, classify(message), first_line(message)))
                    if messages:
                        print(f"=== {generation} {case_id}\n{message}", flush=True)
        return rows


def _progress(name: str, rows) -> None:
    refused = sum(1 for r in rows if r[2])
    print(f"{name}: {refused} of {len(rows)} refused", file=sys.stderr, flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-g", "--generation", action="append", choices=sorted(TPU_TOPOLOGIES),
                        help="repeatable; default: all five")
    parser.add_argument("-k", "--samples", default="", help="regex over sample names")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="worker processes (one libtpu each)")
    parser.add_argument("--rows", type=pathlib.Path, help="write DIR/<generation>.rows")
    parser.add_argument("--messages", action="store_true", help="print each refusal's whole message")
    opts = parser.parse_args()
    generations = opts.generation or list(TPU_TOPOLOGIES)
    binary, _ = helionc_path()
    sys.path.insert(0, str(PROJECT_ROOT / "tests" / "e2e"))
    from references import SAMPLES

    names = [s.name for s in SAMPLES if not s.host_values and re.search(opts.samples, s.name)]
    work = [(n, generations, binary, opts.messages) for n in names]
    rows = []
    if opts.jobs > 1:
        # spawned, not forked: JAX's threads are running in this process
        spawn = multiprocessing.get_context("spawn")
        with concurrent.futures.ProcessPoolExecutor(opts.jobs, mp_context=spawn) as pool:
            for item, part in zip(work, pool.map(census_of_sample, work)):
                rows += part
                _progress(item[0], part)
    else:
        for item in work:
            part = census_of_sample(item)
            rows += part
            _progress(item[0], part)

    for generation in generations:
        mine = [r for r in rows if r[0] == generation]
        refused = [r for r in mine if r[2]]
        by_class = collections.Counter(r[2] for r in refused)
        samples = collections.defaultdict(set)
        for r in refused:
            samples[r[2]].add(r[1].split("-", 1)[0])
        print(f"{generation}: {len(refused)} of {len(mine)} refused "
              f"({len({r[1].split('-', 1)[0] for r in refused})} of {len(names)} samples)")
        for cls, n in by_class.most_common():
            names_of = " ".join(sorted(samples[cls])[:10])
            print(f"  {n:5d}  {cls}  [{len(samples[cls])} samples: {names_of}]")
        if opts.rows:
            opts.rows.mkdir(parents=True, exist_ok=True)
            with open(opts.rows / f"{generation}.rows", "w") as out:
                for _, case, cls, line in sorted(refused, key=lambda r: (r[2], r[1])):
                    out.write(f"{cls}\t{case}\t{line}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
