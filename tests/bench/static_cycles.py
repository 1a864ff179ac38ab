#!/usr/bin/env python3
"""Static cycles per kernel x loop strategy x generation, from the TPU compiler's own schedule.

Each helionc module (every `pallas_loop_type` of its inner loop) and JAX's hand-written kernel
at the same blocks and shapes (jax/experimental/pallas/ops/tpu matmul.py, flash_attention.py)
is compiled by libtpu for a TPU topology on this CPU, with the compiler's final bundles dumped
(`--xla_jf_dump_to`, `--xla_jf_dump_llo_text`); bundles.py reads the listing of each Pallas
kernel (the call's `tpu_custom_call`s) into its loop tree and static cycles.

Columns: `steps` the launch's grid steps, `per step` static cycles of one grid step (the grid
loop's iteration with its inner loops at their trip counts), `per call` the whole call (bundles
outside the grid loop plus steps x per step), `per block step` the call's cycles over JAX's grid
steps (one block product of the call: comparable across strategies, whose grids differ), `vs
JAX` the ratio of calls, `guarded` the bundles of a step behind a forward branch (`pl.when`,
the pipeline's first and last steps: counted as issued). A `~` marks a figure with a loop whose
trip count is only known at run time (counted once: a per-iteration figure).

The cases are issue 26's measurement setup: matmul 2048^3 bf16 at blocks [512, 1024, 1024] on
tpu-v5e, and flash attention bf16 with bq = bk = 512, q 1x1x512xD, k and v 1x1x8192xD for D =
128 and 256 on tpu-v7x. `--generation` compiles every case for the generations named instead.

    tests/bench/static_cycles.py [--generation tpu-v7x ...] [--case matmul ...] [--markdown]
        [--strategy grid ...] [--keep-dumps DIR] [--json OUT] [--msa]

Every operand is in HBM, as for a workload too large to place in VMEM: XLA's memory-space
assignment is off (libtpu_flags.py; `--msa` keeps it on, and then a small operand placed in VMEM
turns a kernel's own DMAs into vector copy loops while BlockSpec windows read it in place).
One process, one libtpu (the dump flags are read when libtpu loads); about 10 s a compile.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import pathlib
import re
import shutil
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "e2e")]
os.environ.setdefault("JAX_PLATFORMS", "cpu")
DUMP = pathlib.Path(tempfile.mkdtemp(prefix="static_cycles."))
import libtpu_flags  # noqa: E402

libtpu_flags.operands_in_hbm(sys.argv)
os.environ["LIBTPU_INIT_ARGS"] = (f"{os.environ.get('LIBTPU_INIT_ARGS', '')} --xla_jf_dump_to={DUMP}"
                                  " --xla_jf_dump_llo_text=true").strip()

import jax  # noqa: E402
from jax.experimental import pallas as pl  # noqa: E402

import bundles  # noqa: E402
import e2e_support as es  # noqa: E402
import hand_written  # noqa: E402
import profile_unit  # noqa: E402

STRATEGIES = profile_unit.STRATEGIES


@dataclasses.dataclass(frozen=True)
class Case:
    name: str
    sample: str
    kernel: str
    blocks: tuple[int, ...]
    call: str                  # the sample's call, in the `.shapes` syntax
    generation: str            # issue 26's generation for this case
    jax_kernel: object         # () -> (fn, argument structs): JAX's kernel at the same blocks


def _attention(d: int) -> Case:
    tensors = f"q_in=1x1x512x{d}:bf16,k_in=1x1x8192x{d}:bf16,v_in=1x1x8192x{d}:bf16"
    return Case(f"attention D={d}", "attention", "attention_output", (1, 512, 512), tensors, "tpu-v7x",
                lambda: hand_written.flash_attention(1, 1, 512, d, 512, 512, causal=False, kv_seq=8192))


CASES = (
    Case("matmul 2048^3", "matmul", "matmul", (512, 1024, 1024), "x=2048x2048:bf16,y=2048x2048:bf16", "tpu-v5e",
         lambda: hand_written.matmul(2048, 2048, 2048, 512, 1024, 1024)),
    _attention(128),
    _attention(256),
)


@dataclasses.dataclass
class Row:
    case: str
    generation: str
    kernel: str              # "JAX" or the strategy
    steps: int = 0
    step_cycles: int = 0
    call_cycles: int = 0
    guarded: int = 0
    exact: bool = True
    error: str = ""
    note: str = ""
    block_steps: int = 0     # JAX's grid steps for this case (filled in the report)


# ---------------------------------------------------------------------------------------------
# compiling with the dump


class GridRecorder:
    """Records each pallas_call's grid while `fn` traces (the steps the call runs)."""

    def __init__(self):
        self.grids: list[tuple[int, ...]] = []
        self.original = pl.pallas_call

    def __enter__(self):
        def recording(kernel, *args, **kwargs):
            grid = kwargs.get("grid")
            if grid is None and kwargs.get("grid_spec") is not None:
                grid = kwargs["grid_spec"].grid
            self.grids.append(tuple(grid) if isinstance(grid, (tuple, list)) else (grid or 1,))
            return self.original(kernel, *args, **kwargs)

        pl.pallas_call = recording
        return self

    def __exit__(self, *exc):
        pl.pallas_call = self.original


def custom_call_names(hlo_text: str) -> list[str]:
    """The Pallas kernels (tpu_custom_call) of a compiled executable, by HLO name."""
    names = []
    for line in hlo_text.splitlines():
        if 'custom_call_target="tpu_custom_call"' in line:
            found = re.match(r"\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=", line)
            if found:
                names.append(found.group(1))
    return names


def compile_and_read(fn, structs, generation: str, keep: pathlib.Path | None, tag: str):
    """Compile; the parsed listing of each Pallas kernel and the grids traced."""
    before = set(os.listdir(DUMP))
    with GridRecorder() as recorder:
        compiled = es.compile_for_tpu(fn, *structs, generation=generation)
    new = sorted(set(os.listdir(DUMP)) - before)
    wanted = custom_call_names(compiled.compiled.as_text())
    kernels = []
    for filename in new:
        name = bundles.kernel_name(filename)
        if name in wanted:
            text = (DUMP / filename).read_text()
            kernels.append(bundles.parse(text, generation, name=name))
            if keep:
                keep.mkdir(parents=True, exist_ok=True)
                (keep / f"{tag}-{name}-final_bundles.txt").write_text(text)
    for filename in new:
        (DUMP / filename).unlink(missing_ok=True)
    return kernels, recorder.grids


def measure(label: str, case: Case, generation: str, fn, structs, keep) -> Row:
    row = Row(case.name, generation, label)
    tag = re.sub(r"\W+", "_", f"{case.name}-{generation}-{label}")
    try:
        kernels, grids = compile_and_read(fn, structs, generation, keep, tag)
    except Exception as e:  # a refusal: reported in the table
        row.error = " ".join(str(e).split())[:160]
        return row
    if not kernels:
        row.error = "no Pallas kernel in the compiled program"
        return row
    if len(kernels) != len(grids):
        row.error = f"{len(kernels)} kernels in the listing, {len(grids)} pallas_calls traced"
        return row
    for kernel, grid in zip(kernels, grids):  # one launch in every case here
        steps = math.prod(grid)
        row.steps += steps
        row.step_cycles += kernel.step_cycles()
        row.call_cycles += kernel.call_cycles(steps)
        loop = kernel.grid_loop
        row.guarded += loop.guarded if loop else kernel.guarded
        row.exact &= kernel.exact
        if loop and loop.trips is not None and not 0 < loop.trips - steps <= 2:
            row.note = f"grid loop of {loop.trips} iterations for {steps} steps"
    if len(kernels) > 1:
        row.note = f"{len(kernels)} kernels: figures summed"
    return row


def rows_of(case: Case, generation: str, strategies, helionc: str, workdir: pathlib.Path, keep) -> list[Row]:
    fn, structs = case.jax_kernel()
    jax_row = measure("JAX", case, generation, fn, structs, keep)
    rows = [jax_row]
    args = profile_unit._arguments(case.sample, case.kernel, case.call)
    for strategy in strategies:
        try:
            path = profile_unit.compile_sample(helionc, case.sample, case.kernel, case.blocks, (strategy,), workdir)
            kernel = getattr(profile_unit._import(path), case.kernel)
        except Exception as e:
            rows.append(Row(case.name, generation, strategy, error=" ".join(str(e).split())[:160]))
            continue
        rows.append(measure(strategy, case, generation, lambda *a: kernel(*a, interpret=False), args, keep))
    for row in rows:
        row.block_steps = jax_row.steps
    return rows


# ---------------------------------------------------------------------------------------------
# the report


def print_table(rows: list[Row], markdown: bool) -> None:
    head = ["case", "generation", "kernel", "steps", "per step", "per call", "per block step", "vs JAX", "guarded"]
    jax_calls = {(r.case, r.generation): r.call_cycles for r in rows if r.kernel == "JAX" and not r.error}
    table = []
    for r in rows:
        if r.error:
            table.append([r.case, r.generation, r.kernel, "-", "-", "-", "-", "-", f"refused: {r.error}"])
            continue
        mark = "" if r.exact else "~"
        base = jax_calls.get((r.case, r.generation))
        per_block = f"{r.call_cycles / r.block_steps:,.0f}{mark}" if r.block_steps else "-"
        table.append([r.case, r.generation, r.kernel, str(r.steps), f"{r.step_cycles:,}{mark}",
                      f"{r.call_cycles:,}{mark}", per_block, f"{r.call_cycles / base:.2f}" if base else "-",
                      str(r.guarded) + (f" ({r.note})" if r.note else "")])
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for cells in table:
            print("| " + " | ".join(cells) + " |")
        return
    widths = [max(len(h), *(len(c[i]) for c in table)) for i, h in enumerate(head)]
    for cells in [head, *table]:
        print("  ".join(c.ljust(w) if i < 3 or i == 8 else c.rjust(w) for i, (c, w) in enumerate(zip(cells, widths))))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generation", action="append", choices=sorted(bundles.DELAY_SLOTS),
                        help="compile every case for these generations (default: each case's own)")
    parser.add_argument("--case", action="append", choices=sorted({c.sample for c in CASES}),
                        help="only these samples' cases")
    parser.add_argument("--strategy", action="append", choices=STRATEGIES)
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--keep-dumps", type=pathlib.Path, help="copy each kernel's final bundles here")
    parser.add_argument("--json", type=pathlib.Path, help="write the rows here")
    parser.add_argument("--msa", action="store_true",
                        help="leave XLA's memory-space assignment on (small operands may sit in VMEM)")
    args = parser.parse_args(argv)
    helionc = str(es.helionc_path()[0])
    rows: list[Row] = []
    try:
        with tempfile.TemporaryDirectory(prefix="static_cycles.") as workdir:
            for case in CASES:
                if args.case and case.sample not in args.case:
                    continue
                for generation in args.generation or [case.generation]:
                    rows += rows_of(case, generation, args.strategy or STRATEGIES, helionc,
                                    pathlib.Path(workdir), args.keep_dumps)
    finally:
        shutil.rmtree(DUMP, ignore_errors=True)
    print_table(rows, args.markdown)
    if args.json:
        args.json.write_text(json.dumps([dataclasses.asdict(r) for r in rows], indent=1))
    return 1 if any(r.error and r.kernel == "JAX" for r in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
