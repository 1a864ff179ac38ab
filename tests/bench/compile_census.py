"""The TPU compiler on what helionc writes (issue 28), without a TPU (libtpu from jax[tpu]).

1. Per generation, every sample's default-config module (no --config) compiled for one chip
   of that generation on every call of its .shapes file: compiled, refused by class (read from
   the compiler's message), crashed or timed out. The compiles run on the `--search compile`
   runner's workers (runtime/measure/helionc_compile.py: compile_all), so a libtpu abort costs
   one case.
2. `helionc --autotune --search compile` on the central samples over their .shapes files:
   seconds per call (whole process, against `--search model`'s), and how many of the model's
   top choices (its first candidate per call) and of all its candidates the compiler refused.
3. The VMEM prediction against the compiler's figure is another benchmark's
   (tests/bench/vmem_accuracy.py); `--vmem` runs it on the same generations.

    scripts/compile_bench.sh [--generation G ...] [--sample NAME ...] [--search-generation G]
        [--top K] [-j N] [--skip-census] [--skip-search] [--vmem] [--markdown] [--json OUT]

Prints numbers; it is not a test and checks nothing.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time

# This process only reads the test harness; it never opens a device (the workers compile).
os.environ.setdefault("JAX_PLATFORMS", "cpu")
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))
sys.path.insert(0, str(ROOT / "runtime" / "measure"))

import helionc_compile  # noqa: E402
from e2e_support import TPU_TOPOLOGIES, kernels_in, param_of, read_shapes_file  # noqa: E402
from references import SAMPLES  # noqa: E402

GENERATIONS = ("tpu-v7x", "tpu-v6e", "tpu-v5e", "tpu-v5p", "tpu-v4")
# The central samples: the kernels users tune first.
CENTRAL = ("attention", "causal_attention", "attention_lse", "matmul", "bmm", "softmax",
           "softmax_two_pass", "layer_norm", "rms_norm", "cross_entropy", "matmul_layernorm",
           "long_sum", "embedding")
# Refusal classes, by the compiler's message; the first that matches names the class.
CLASSES = (
    ("shape cast", r"unsupported shape cast"),
    ("unaligned offsets along tiled dims", r"Offsets along tiled dimensions must be aligned"),
    ("dynamic offset not word-aligned", r"dynamic offset times the element size"),
    ("index not provably a multiple of 8", r"cannot statically prove that index"),
    ("invalid relayout", r"[Ii]nvalid relayout"),
    ("invalid input layout", r"[Ii]nvalid input layout"),
    ("scoped VMEM out of memory", r"ScopedVmemOom|[Ss]coped [Vv]mem|scoped allocation"),
    ("VMEM out of memory", r"memory space vmem|space=vmem"),
    ("misaligned block (E2002)", r"E2002"),
    ("invalid vector type for load", r"Invalid vector type for load"),
    ("sublane broadcast", r"[Ss]ublane broadcast"),
    ("sublane gather (generation)", r"Sublane gather not supported"),
    ("gather", r"[Gg]ather"),
    ("unpack_subelements", r"unpack_subelements"),
    ("matmul operand types", r"matmul|Matmul"),
    ("not implemented", r"[Nn]ot implemented|[Uu]nimplemented"),
)


def refusal_class(message: str) -> str:
    for name, pattern in CLASSES:
        if re.search(pattern, message):
            return name
    first = next((line for line in message.splitlines() if line.strip()), "")
    return "other: " + first[:90]


def helionc() -> str:
    return os.environ.get("HELIONC", str(ROOT / "build" / "src" / "driver" / "helionc"))


# ---- 1. default configs per generation ------------------------------------------------------


def kernel_name(sample: str) -> str | None:
    spec = next((s for s in SAMPLES if s.name == sample), None)
    if spec:
        return spec.kernel
    kernels = kernels_in(ROOT / "samples" / f"{sample}.py")
    return kernels[0].name if len(kernels) == 1 else None


def scalars_for(sample: str, given: set) -> dict | None:
    """The scalar arguments the tests pass where no default exists; None if the runner cannot
    pass them (a callable) or the kernel reads tensor values on the host."""
    spec = next((s for s in SAMPLES if s.name == sample), None)
    if spec is None:
        return {}
    if spec.host_values:
        return None
    kernel = next(k for k in kernels_in(ROOT / "samples" / f"{sample}.py") if k.name == spec.kernel)
    needed = [p for p in kernel.params if p not in given and p not in kernel.defaults]
    scalars = {p: spec.scalars[0][p] for p in needed if p in spec.scalars[0]}
    try:
        json.dumps(scalars)
    except TypeError:
        return None
    return scalars


def census(generation: str, samples: list[str], jobs: int, timeout: float, work: pathlib.Path):
    """Rows (sample, call text, status, class or message) for every default-config case."""
    rows, tasks, keys = [], [], []
    folder = work / generation
    folder.mkdir(parents=True, exist_ok=True)
    for sample in samples:
        calls = read_shapes_file(ROOT / "samples" / f"{sample}.shapes")
        kernel = kernel_name(sample)
        module = folder / f"{sample}_pallas.py"
        made = subprocess.run([helionc(), str(ROOT / "samples" / f"{sample}.py"), "--target",
                               generation, "-o", str(module)], capture_output=True, text=True)
        for call in calls:
            given = {param_of(t.name) for t in call.tensors}
            scalars = scalars_for(sample, given)
            if made.returncode != 0 or kernel is None or scalars is None:
                why = ("helionc refused the sample" if made.returncode != 0
                       else "not compiled here (host values, callables or several kernels)")
                rows.append((sample, str(call), "skipped", why))
                continue
            tasks.append({"module": str(module), "kernel": kernel, "scalars": scalars,
                          "tensors": [{"name": t.name, "shape": list(t.shape),
                                       "dtype": t.dtype.name} for t in call.tensors]})
            keys.append((sample, str(call)))
    reports = {}
    failure = helionc_compile.compile_all(tasks, TPU_TOPOLOGIES[generation], jobs, timeout, folder,
                                          lambda index, report: reports.__setitem__(index, report))
    if failure:
        raise SystemExit(f"{generation}: libtpu could not start: {failure}")
    for index, (sample, call) in enumerate(keys):
        report = reports[index]
        status = report["status"]
        detail = refusal_class(report["message"]) if status == "refused" else report["message"]
        rows.append((sample, call, status, detail))
    return rows


def print_census(results: dict, markdown: bool) -> None:
    generations = list(results)
    print("\n## Default configs on their .shapes calls, per generation\n")
    table = [["", *generations]]
    for label, test in (("cases", lambda r: r[2] != "skipped"),
                        ("compiled", lambda r: r[2] == "ok"),
                        ("refused", lambda r: r[2] == "refused"),
                        ("compiler_crash", lambda r: r[2] == "compiler_crash"),
                        ("timeout", lambda r: r[2] == "timeout"),
                        ("skipped", lambda r: r[2] == "skipped")):
        table.append([label, *(str(sum(1 for r in results[g] if test(r))) for g in generations)])
    table.append(["samples with a refusal",
                  *(str(len({r[0] for r in results[g] if r[2] == "refused"})) for g in generations)])
    print_table(table, markdown)
    print("\nRefused by class (the compiler's message):\n")
    counts = {g: collections.Counter(r[3] for r in results[g] if r[2] == "refused")
              for g in generations}
    classes = sorted({c for g in generations for c in counts[g]},
                     key=lambda c: -sum(counts[g][c] for g in generations))
    print_table([["class", *generations],
                 *([c, *(str(counts[g][c]) for g in generations)] for c in classes)], markdown)


# ---- 2. --search compile on the central samples --------------------------------------------


def calls_in(shapes: pathlib.Path) -> int:
    return len(read_shapes_file(shapes))


def tune(sample: str, search: str, generation: str, top: int, jobs: int, work: pathlib.Path):
    shapes = ROOT / "samples" / f"{sample}.shapes"
    yaml_path = work / f"{sample}.{search}.yaml"
    command = [helionc(), str(ROOT / "samples" / f"{sample}.py"), "--autotune", "-q",
               "--target", generation, "--shapes-file", str(shapes), "--config-out",
               str(yaml_path), "--search", search, "-j", str(jobs)]
    if search == "compile":
        command += ["--top", str(top)]
    start = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    journal = pathlib.Path(str(yaml_path) + ".journal")
    records = ([json.loads(line) for line in journal.read_text().splitlines()]
               if search == "compile" and journal.exists() else [])
    return seconds, run.returncode, run.stderr.strip(), records


def search_rows(samples: list[str], generation: str, top: int, jobs: int, work: pathlib.Path):
    rows = []
    for sample in samples:
        calls = calls_in(ROOT / "samples" / f"{sample}.shapes")
        model_s, _, _, _ = tune(sample, "model", generation, top, jobs, work)
        seconds, status, stderr, records = tune(sample, "compile", generation, top, jobs, work)
        first = [r for r in records if r.get("rank") == 0]
        rows.append({
            "sample": sample, "calls": calls, "seconds": seconds, "model_seconds": model_s,
            "exit": status, "candidates": len(records),
            "refused": sum(1 for r in records if r["status"] != "ok"),
            "top_refused": sum(1 for r in first if r["status"] != "ok"),
            "top_classes": collections.Counter(refusal_class(r["message"]) for r in first
                                               if r["status"] == "refused"),
            "error": stderr.splitlines()[-1] if status else "",
        })
    return rows


def print_search(rows: list[dict], generation: str, top: int, markdown: bool) -> None:
    print(f"\n## --search compile --top {top} on the central samples, {generation}\n")
    table = [["sample", "calls", "s/call compile", "s/call model", "top refused",
              "candidates refused", "exit"]]
    for r in rows:
        table.append([r["sample"], str(r["calls"]), f"{r['seconds'] / r['calls']:.2f}",
                      f"{r['model_seconds'] / r['calls']:.2f}",
                      f"{r['top_refused']} of {r['calls']}",
                      f"{r['refused']} of {r['candidates']}", str(r["exit"])])
    calls = sum(r["calls"] for r in rows)
    table.append(["all", str(calls), f"{sum(r['seconds'] for r in rows) / calls:.2f}",
                  f"{sum(r['model_seconds'] for r in rows) / calls:.2f}",
                  f"{sum(r['top_refused'] for r in rows)} of {calls}",
                  f"{sum(r['refused'] for r in rows)} of {sum(r['candidates'] for r in rows)}",
                  ""])
    print_table(table, markdown)
    classes = sum((r["top_classes"] for r in rows), collections.Counter())
    if classes:
        print("\nThe model's top choices the compiler refused, by class: "
              + ", ".join(f"{c} {n}" for c, n in classes.most_common()))
    for r in rows:
        if r["exit"]:
            print(f"{r['sample']}: exit {r['exit']}: {r['error'][:300]}")


# ---- output ----------------------------------------------------------------------------------


def print_table(rows: list[list[str]], markdown: bool) -> None:
    if markdown:
        print("| " + " | ".join(rows[0]) + " |")
        print("|" + "---|" * len(rows[0]))
        for row in rows[1:]:
            print("| " + " | ".join(row) + " |")
        return
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(widths[c]) if c == 0 else cell.rjust(widths[c])
                        for c, cell in enumerate(row)))


def vmem_hook(generations: list[str], jobs: int) -> None:
    """The VMEM prediction against the compiler is tests/bench/vmem_accuracy.py's."""
    script = ROOT / "tests" / "bench" / "vmem_accuracy.py"
    print("\n## VMEM: helionc's prediction against the compiler's allocation\n")
    if not script.exists():
        print(f"(not in this tree: {script.relative_to(ROOT)} reports it)")
        return
    command = [sys.executable, str(script), "--defaults-only", "-j", str(jobs)]
    for generation in generations:
        command += ["--generation", generation]
    sys.stdout.flush()
    subprocess.run(command, check=False)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generation", action="append", choices=GENERATIONS,
                        help="generations of the census (default: all five)")
    parser.add_argument("--sample", action="append", help="census only these samples")
    parser.add_argument("--search-generation", default="tpu-v7x", choices=GENERATIONS)
    parser.add_argument("--top", type=int, default=8, help="--search compile's --top")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="compile workers")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per compile")
    parser.add_argument("--skip-census", action="store_true")
    parser.add_argument("--skip-search", action="store_true")
    parser.add_argument("--vmem", action="store_true", help="also run tests/bench/vmem_accuracy.py")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--json", type=pathlib.Path, help="write every row here")
    args = parser.parse_args()
    generations = args.generation or list(GENERATIONS)
    samples = args.sample or sorted(p.stem for p in (ROOT / "samples").glob("*.shapes"))
    out = {}
    with tempfile.TemporaryDirectory(prefix="compile-census-") as tmp:
        work = pathlib.Path(tmp)
        if not args.skip_census:
            results = {}
            for generation in generations:
                start = time.perf_counter()
                results[generation] = census(generation, samples, args.jobs, args.timeout, work)
                print(f"{generation}: {len(results[generation])} cases in "
                      f"{time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
            print_census(results, args.markdown)
            out["census"] = results
        if not args.skip_search:
            rows = search_rows(list(CENTRAL), args.search_generation, args.top, args.jobs, work)
            print_search(rows, args.search_generation, args.top, args.markdown)
            out["search"] = [{**r, "top_classes": dict(r["top_classes"])} for r in rows]
    if args.vmem:
        vmem_hook(generations, args.jobs)
    if args.json:
        args.json.write_text(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
