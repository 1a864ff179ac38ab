"""Autotune time (issue 10): `helionc --autotune` over every sample's shape list
(samples/NAME.shapes), whole process, wall time; goal: under 1 s per kernel for 10 shapes.

    scripts/autotune_bench.sh [--target T] [--runs N] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def calls_in(shapes: Path) -> int:
    count = 0
    for line in shapes.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        count += len([c for c in line.split(";") if c.strip()])
    return count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default="tpu-v7x")
    parser.add_argument("--runs", type=int, default=3, help="runs per sample (the median counts)")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    helionc = os.environ.get("HELIONC", str(ROOT / "build/src/driver/helionc"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for shapes in sorted((ROOT / "samples").glob("*.shapes")):
            sample = shapes.with_suffix(".py")
            times, status, message = [], 0, ""
            for _ in range(args.runs):
                start = time.perf_counter()
                run = subprocess.run(
                    [helionc, str(sample), "--autotune", "-q", "--target", args.target,
                     "--shapes-file", str(shapes), "--config-out", str(Path(tmp) / "out.yaml")],
                    capture_output=True, text=True, check=False)
                times.append(time.perf_counter() - start)
                status = run.returncode
                message = run.stderr.strip().splitlines()[0] if run.stderr.strip() else ""
            rows.append((sample.stem, calls_in(shapes), statistics.median(times), status, message))
    worst = max(t / max(calls, 1) * 10 for _, calls, t, _, _ in rows)
    if args.markdown:
        print("| sample | calls | seconds | status |")
        print("|---|---:|---:|---|")
        for name, calls, seconds, status, message in rows:
            print(f"| {name} | {calls} | {seconds:.3f} | {'ok' if status == 0 else status} |")
    else:
        for name, calls, seconds, status, message in rows:
            print(f"{name:24} {calls:3} calls {seconds:7.3f} s  "
                  f"{'ok' if status == 0 else f'exit {status}: {message[:100]}'}")
    print(f"\nslowest, scaled to 10 calls: {worst:.3f} s (goal: under 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
