"""Expectations of samples/row_sum.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_row_sum(x):
    return (f64(x).sum(axis=-1).astype(x.dtype),)


SPEC = SampleSpec(
    name="row_sum",
    kernel="sum_kernel",
    configs={"b8": (8,), "b64": (64,)},
    reference=ref_row_sum,
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    tolerance=SUM_TOLERANCE,
)
