"""The cost model's calibration (issue 10): published TPU measurements against what
`helionc --estimate` predicts for the same kernel, shapes, blocks and target.

Every case names its source. A cell fails when the prediction is more than --tolerance points
(of the peak) away from the measurement, and a case fails when its cells come out in a different
order than measured (for every two cells whose measurements differ by at least 0.1 point).
Needs only helionc: the model runs without a TPU. Exit status 1 when a cell or an order fails.

    scripts/calibrate.sh [--markdown] [--tolerance POINTS]
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

MATMUL_GUIDE = "JAX Pallas TPU matmul guide (docs.jax.dev/en/latest/pallas/tpu/matmul.html), v5e"


@dataclasses.dataclass
class Case:
    name: str
    source: str
    kernel: Path
    target: str
    peak_tflops: float  # the peak the source's fractions are of
    # (bm, bk, bn) -> {m=k=n: published percent of peak}
    # Square products only: y is [k, n] or, transposed, [n, k], the same shape.
    cells: dict[tuple[int, int, int], dict[int, float]]


CASES = [
    Case(
        name="matmul bf16",
        source=MATMUL_GUIDE + ", 'bfloat16 matrix multiplication' / 'Performance of pipelined "
        "kernels'",
        kernel=ROOT / "samples/matmul.py",
        target="tpu-v5e",
        peak_tflops=197,
        cells={
            (128, 128, 128): {1024: 3.6621, 4096: 5.9267, 8192: 6.0775},
            (512, 1024, 1024): {1024: 8.5776, 4096: 78.4692, 8192: 91.5048},
        },
    ),
    Case(
        name="matmul bf16, fused ReLU",
        source=MATMUL_GUIDE + ", 'Fused activation function'",
        kernel=ROOT / "tests/bench/calibration/matmul_relu.py",
        target="tpu-v5e",
        peak_tflops=197,
        cells={
            (128, 128, 128): {1024: 3.6211, 4096: 5.9088, 8192: 6.0786},
            (512, 1024, 1024): {1024: 8.6361, 4096: 77.8089, 8192: 91.0396},
        },
    ),
    Case(
        name="matmul bf16, fused RHS transpose",
        source=MATMUL_GUIDE + ", 'Fused right-hand-side transpose'",
        kernel=ROOT / "tests/bench/calibration/matmul_rhs_t.py",
        target="tpu-v5e",
        peak_tflops=197,
        cells={
            (128, 128, 128): {1024: 3.5984, 4096: 5.8051, 8192: 5.8745},
            (512, 1024, 1024): {1024: 8.9856, 4096: 79.3641, 8192: 91.3807},
        },
    ),
]


def call_times(text: str) -> dict[str, float]:
    """`shapes` -> the call's `time_us` in --estimate's YAML (a call's time is the line right
    after its shapes)."""
    times = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        match = re.match(r'\s*- shapes: "([^"]*)"$', line)
        if match and i + 1 < len(lines):
            value = re.match(r"\s*time_us: (\S+)$", lines[i + 1])
            if value is None or value.group(1) == "null":
                raise SystemExit(f"calibrate: no time for {match.group(1)}:\n{text}")
            times[match.group(1)] = float(value.group(1))
    return times


def predict(helionc: str, case: Case, blocks: tuple[int, int, int], sizes: list[int],
            workdir: Path) -> dict[int, float]:
    """Predicted percent of the peak per size, for the guide's (bm, bk, bn) blocks."""
    bm, bk, bn = blocks
    config = workdir / f"{case.kernel.stem}_{bm}_{bk}_{bn}.yaml"
    # helionc's block_sizes follow the kernel's tiles: [tile_m, tile_n, tile_k].
    config.write_text(
        "schema_version: 1\n"
        f"kernel: {case.kernel.stem}\n"
        f"default: {{block_sizes: [{bm}, {bn}, {bk}], pallas_loop_type: [grid]}}\n"
    )
    calls = []
    for size in sizes:
        calls.append(f"x={size}x{size}:bf16,y={size}x{size}:bf16")
    run = subprocess.run(
        [helionc, str(case.kernel), "--estimate", "--target", case.target, "--config",
         str(config), "--shapes", ";".join(calls)],
        capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise SystemExit(f"calibrate: helionc failed on {case.kernel}:\n{run.stderr}")
    times = call_times(run.stdout)
    result = {}
    for size, call in zip(sizes, calls):
        # The source's own measure: 2 m k n flops over the time, against the chip's peak.
        flops = 2.0 * size**3
        result[size] = flops / (times[call] * 1e-6) / (case.peak_tflops * 1e12) * 100
    return result


def order_problems(published: dict, predicted: dict) -> list[str]:
    problems = []
    keys = list(published)
    for i, a in enumerate(keys):
        for b in keys[i + 1:]:
            if abs(published[a] - published[b]) < 0.1:
                continue
            if (published[a] < published[b]) != (predicted[a] < predicted[b]):
                problems.append(f"{a} vs {b}: measured {published[a]:.1f} % vs "
                                f"{published[b]:.1f} %, predicted {predicted[a]:.1f} % vs "
                                f"{predicted[b]:.1f} %")
    return problems


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tolerance", type=float, default=5.0, help="points of the peak")
    parser.add_argument("--markdown", action="store_true", help="print a markdown table")
    args = parser.parse_args()
    helionc = os.environ.get("HELIONC", str(ROOT / "build/src/driver/helionc"))
    failures = []
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for case in CASES:
            published, predicted = {}, {}
            for blocks, cells in case.cells.items():
                got = predict(helionc, case, blocks, sorted(cells), Path(tmp))
                for size, measured in cells.items():
                    key = f"{blocks} @ {size}^3"
                    published[key], predicted[key] = measured, got[size]
                    ok = abs(got[size] - measured) <= args.tolerance
                    rows.append((case.name, blocks, size, measured, got[size], ok))
                    if not ok:
                        failures.append(f"{case.name} {key}: measured {measured:.1f} %, "
                                        f"predicted {got[size]:.1f} %")
            for problem in order_problems(published, predicted):
                failures.append(f"{case.name}: wrong order: {problem}")
    if args.markdown:
        print("| kernel | blocks (bm, bk, bn) | m = k = n | published | predicted | |")
        print("|---|---|---|---|---|---|")
        for name, blocks, size, measured, got, ok in rows:
            print(f"| {name} | {', '.join(map(str, blocks))} | {size} | {measured:.1f} % | "
                  f"{got:.1f} % | {'ok' if ok else 'FAIL'} |")
    else:
        print(f"{'kernel':34} {'blocks (bm, bk, bn)':20} {'size':>5} {'published':>10} "
              f"{'predicted':>10}")
        for name, blocks, size, measured, got, ok in rows:
            print(f"{name:34} {str(blocks):20} {size:5} {measured:9.1f}% {got:9.1f}%"
                  f"{'' if ok else '  FAIL'}")
    print("\nsources:")
    for case in CASES:
        print(f"  {case.name}: {case.source}")
    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    if not failures:
        print(f"\nall {len(rows)} cells within {args.tolerance:g} points, in the measured order")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
