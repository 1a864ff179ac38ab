"""Expectations of samples/long_sum.py: float32 accumulator, the result stored in x's dtype."""

from __future__ import annotations

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_long_sum(x):
    return (f64(x).sum(axis=-1).astype(x.dtype),)


SPEC = SampleSpec(
    name="long_sum",
    kernel="long_sum",
    # rows, then the inner loop's columns
    configs={"b8x512": (8, 512), "b16x2048": (16, 2048)},
    reference=ref_long_sum,
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "x", 1),),
)
