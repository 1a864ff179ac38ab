#!/usr/bin/env python3
"""Compile time of helionc per sample, whole process (start-up, parse, compile, write).

Runs `helionc samples/X.py -o TMP` N times per sample (after one warm-up run) and prints a table:
sample, kernels, median ms, min ms, median ms per kernel. The goal is under 10 ms per kernel.
Standard library only, so it runs with any python3.

    tests/bench/compile_time.py [--runs 20] [--helionc PATH] [--markdown] [--check] [SAMPLE.py ...]
"""

from __future__ import annotations

import argparse
import ast
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

from sample_files import sample_kernels  # noqa: E402 - standard library only, as this script
GOAL_MS_PER_KERNEL = 10.0


def count_kernels(path: pathlib.Path) -> int:
    """Functions decorated with @helion.kernel / @helion.jit (any call form)."""

    def is_kernel(dec: ast.expr) -> bool:
        target = dec.func if isinstance(dec, ast.Call) else dec
        return (
            isinstance(target, ast.Attribute)
            and isinstance(target.value, ast.Name)
            and target.value.id == "helion"
            and target.attr in ("kernel", "jit")
        )

    tree = ast.parse(path.read_text(), filename=str(path))
    return sum(
        1
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(is_kernel(d) for d in node.decorator_list)
    )


def time_compile(helionc: pathlib.Path, sample: pathlib.Path, out: pathlib.Path, runs: int) -> list[float]:
    return time_command([str(helionc), str(sample), "-o", str(out)], runs)


def time_command(cmd: list[str], runs: int) -> list[float]:
    times = []
    for i in range(runs + 1):
        start = time.perf_counter()
        proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        elapsed = (time.perf_counter() - start) * 1000.0
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited with {proc.returncode}:\n{proc.stderr.decode(errors='replace')}")
        if i > 0:  # the first run warms the page cache
            times.append(elapsed)
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("samples", nargs="*", type=pathlib.Path, help="default: every sample's kernel")
    parser.add_argument("--runs", type=int, default=20, help="timed runs per sample (default 20)")
    parser.add_argument("--helionc", type=pathlib.Path,
                        default=pathlib.Path(os.environ.get("HELIONC", ROOT / "build/src/driver/helionc")))
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table (for the README)")
    parser.add_argument("--check", action="store_true", help=f"exit 1 if a sample takes over {GOAL_MS_PER_KERNEL:g} ms per kernel")
    args = parser.parse_args(argv)

    helionc = args.helionc if args.helionc.is_absolute() else (pathlib.Path.cwd() / args.helionc)
    if not helionc.is_file():
        print(f"compile_time: no helionc at {helionc} (build it, or pass --helionc / set HELIONC)", file=sys.stderr)
        return 2
    samples = [s.resolve() for s in args.samples] or sample_kernels()
    if not samples:
        print("compile_time: no samples", file=sys.stderr)
        return 2

    rows = []
    failed = False
    with tempfile.TemporaryDirectory(prefix="helionc-bench-") as tmp:
        for sample in samples:
            kernels = count_kernels(sample)
            try:
                times = time_compile(helionc, sample, pathlib.Path(tmp) / f"{sample.stem}_pallas.py", args.runs)
            except RuntimeError as e:
                print(f"compile_time: {e}", file=sys.stderr)
                failed = True
                continue
            median = statistics.median(times)
            rows.append((sample.stem, kernels, median, min(times), median / max(kernels, 1)))

    header = ("sample", "kernels", "median ms", "min ms", "ms/kernel")
    cells = [header] + [(name, str(k), f"{med:.2f}", f"{mn:.2f}", f"{per:.2f}") for name, k, med, mn, per in rows]
    if args.markdown:
        print("| " + " | ".join(header) + " |")
        print("|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|")
        for row in cells[1:]:
            print("| " + " | ".join(row) + " |")
    else:
        widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
        for j, row in enumerate(cells):
            print("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))))
            if j == 0:
                print("  ".join("-" * w for w in widths))
    if rows:
        total_kernels = sum(r[1] for r in rows)
        total_median = sum(r[2] for r in rows)
        worst = max(rows, key=lambda r: r[4])
        print(f"\n{len(rows)} samples, {total_kernels} kernels, {args.runs} runs each (whole process, after one warm-up); "
              f"slowest {worst[0]} at {worst[4]:.2f} ms/kernel; goal < {GOAL_MS_PER_KERNEL:g} ms/kernel")
        try:
            startup = statistics.median(time_command([str(helionc), "--version"], args.runs))
            print(f"process start-up alone (helionc --version): {startup:.2f} ms median")
        except RuntimeError as e:
            print(f"compile_time: {e}", file=sys.stderr)
        if args.check and worst[4] >= GOAL_MS_PER_KERNEL:
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
