"""libtpu flags the compile benchmarks share. Import before jax: libtpu reads LIBTPU_INIT_ARGS
when it loads.

XLA's memory-space assignment may place a small operand whole in VMEM before a kernel runs;
Mosaic then reads it in place (a BlockSpec window costs nothing) or copies it with vector loads
and stores (a kernel's own DMA becomes a VMEM-to-VMEM copy loop), so both a kernel's scoped VMEM
and its bundles depend on what else the program keeps in VMEM. With it off every operand is in
HBM, as in a program with no VMEM to spare and as for any operand too large to place: the
kernel's own need and its own schedule. (`gf`/`vf`: the flags of the v6e/v7x and the v5
backends; v4 places none.)
"""

from __future__ import annotations

import os

NO_MSA = "--xla_gf_vmem_memory_space_assignment=false --xla_vf_vmem_memory_space_assignment=false"


def operands_in_hbm(argv: list[str]) -> None:
    """Turn XLA's memory-space assignment off for this process unless `--msa` is in `argv`."""
    if "--msa" not in argv:
        os.environ["LIBTPU_INIT_ARGS"] = f"{os.environ.get('LIBTPU_INIT_ARGS', '')} {NO_MSA}".strip()
