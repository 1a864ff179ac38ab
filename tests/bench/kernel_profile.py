#!/usr/bin/env python3
"""Kernel profile (issue 9): the work per grid step of every sample, counted in the Mosaic MLIR.

For every sample (profile_cases.py), under every combination of the `pallas_loop_type`
strategies its inner loops admit (`helionc --dump-after plan-launches`), at a shape its blocks
divide and one they do not: compile with helionc, lower for TPU7x on the CPU (`jax.export`,
`pl.pallas_call(debug=True)`), and count per grid step MXU flops, VPU, EUP and relayout
elements and VMEM vector loads (mosaic_counts.py). Printed side by side with JAX's hand-written
matmul.py and flash_attention.py (non-causal and causal) at the same blocks, with issue 9's
goals as PASS/FAIL lines (never a failing exit status: that is only for errors).

    tests/bench/kernel_profile.py [--helionc PATH] [--samples matmul,attention] [--jobs 2]
                                  [--markdown | --json] [--lines N]
"""

from __future__ import annotations

import argparse
import concurrent.futures
import itertools
import json
import multiprocessing
import os
import pathlib
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "e2e")]
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import profile_report  # noqa: E402
import profile_unit  # noqa: E402
from profile_cases import CASES, HAND_WRITTEN, Case  # noqa: E402

ROOT = HERE.parents[1]


def all_cases() -> list[Case]:
    """profile_cases.CASES, plus any sample it does not list (its expectation file's last config
    and the first two calls of its sidecar)."""
    from e2e_support import read_shapes_file
    from references import SAMPLES_BY_NAME
    from sample_files import sample_kernels

    listed = {c.sample for c in CASES}
    extra = []
    for path in sample_kernels():
        spec = SAMPLES_BY_NAME.get(path.stem)
        if path.stem in listed or spec is None:
            continue
        calls = [str(c) for c in read_shapes_file(path.with_suffix(".shapes"))][:2]
        blocks = list(spec.configs.values())[-1]
        extra.append(Case(path.stem, tuple(blocks), calls[0], calls[-1]))
    return list(CASES) + extra


def kernel_name(sample: str) -> str:
    from e2e_support import kernels_in

    return kernels_in(ROOT / "samples" / f"{sample}.py")[0].name


def plan_units(cases: list[Case], helionc: str, workdir: pathlib.Path) -> list[dict]:
    """Every (case, strategies, shape) to profile, as plain data for the workers."""
    units = []
    for case in cases:
        kernel = kernel_name(case.sample)
        try:
            loops = profile_unit.applicable_strategies(helionc, case.sample, kernel, workdir)
        except Exception as e:  # reported as the case's error row
            units.append(dict(case=case, kernel=kernel, loops=(), shape="divides", call=case.dividing,
                              error=str(e)))
            continue
        for combination in itertools.product(*loops):
            for shape, call in (("divides", case.dividing), ("partial", case.partial)):
                units.append(dict(case=case, kernel=kernel, loops=combination, shape=shape, call=call,
                                  evaluate=case.count_blocks and shape == "divides"))
    return units


def hand_written_needed(cases: list[Case]) -> dict[str, bool]:
    """Hand-written kernels to lower -> whether to evaluate their whole grid (for the causal
    count, the non-causal kernel is the yardstick of the MXU work)."""
    needed = {}
    for case in cases:
        if case.hand_written:
            needed[case.hand_written] = needed.get(case.hand_written, False) or case.count_blocks
        if case.count_blocks:
            needed["flash"] = True
    return needed


def run(units: list[dict], hand: dict[str, bool], helionc: str, workdir: pathlib.Path, jobs: int):
    context = multiprocessing.get_context("spawn")  # jax does not survive a fork
    with concurrent.futures.ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        hand_futures = {name: pool.submit(profile_unit.profile_hand_written, name, evaluate)
                        for name, evaluate in hand.items()}
        futures = []
        for unit in units:
            if "error" in unit:
                futures.append(None)
                continue
            case = unit["case"]
            futures.append(pool.submit(profile_unit.profile_sample, helionc, case.sample, unit["kernel"],
                                       case.blocks, unit["loops"], unit["call"], str(workdir),
                                       unit["evaluate"]))
        for unit, future in zip(units, futures):
            unit["result"] = future.result() if future else profile_unit.Result(error=unit["error"])
        return {name: f.result() for name, f in hand_futures.items()}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--helionc", default=os.environ.get("HELIONC", str(ROOT / "build/src/driver/helionc")),
                        help="the compiler (default: $HELIONC, else build/src/driver/helionc)")
    parser.add_argument("--samples", default="", help="comma-separated sample names (default: all)")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1), help="worker processes (default 2)")
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--markdown", action="store_true", help="Markdown tables (for the README)")
    output.add_argument("--json", action="store_true", help="everything as JSON, per-op and per-line breakdowns included")
    parser.add_argument("--lines", type=int, default=0, metavar="N",
                        help="after the tables, the N generated lines with the most VPU+EUP work per compared row")
    args = parser.parse_args(argv)

    helionc = str(pathlib.Path(args.helionc).resolve())
    if not os.access(helionc, os.X_OK):
        print(f"kernel_profile: no helionc at {helionc} (build it, or pass --helionc / set HELIONC)", file=sys.stderr)
        return 2
    cases = all_cases()
    if args.samples:
        wanted = {s.strip() for s in args.samples.split(",") if s.strip()}
        unknown = wanted - {c.sample for c in cases}
        if unknown:
            print(f"kernel_profile: unknown samples {sorted(unknown)}", file=sys.stderr)
            return 2
        cases = [c for c in cases if c.sample in wanted]
    with tempfile.TemporaryDirectory(prefix="helionc-profile-") as tmp:
        units = plan_units(cases, helionc, pathlib.Path(tmp))
        hand = run(units, hand_written_needed(cases), helionc, pathlib.Path(tmp), max(1, args.jobs))
    report = profile_report.build(units, hand)
    if args.json:
        print(json.dumps(profile_report.as_json(report), indent=1))
    else:
        print(profile_report.render(report, markdown=args.markdown, lines=args.lines))
    return 1 if report.errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
