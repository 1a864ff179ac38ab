"""Expectations of samples/col_sum.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_col_sum(x):
    return (f64(x).sum(axis=0).astype(x.dtype),)


SPEC = SampleSpec(
    name="col_sum",
    kernel="col_sum",
    # one tile over the columns: the blocks are lane-wide
    configs={"b128": (128,), "b512": (512,)},
    reference=ref_col_sum,
    extra_shapes=("x=1x1:f32", "x=129x9:bf16"),
    tolerance=SUM_TOLERANCE,
)
