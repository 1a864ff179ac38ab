"""Expectations of samples/any_rank_scratch.py: 2 (x + 1), and scratch updated to x + 1 (returned
after it).
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_any_rank_scratch(x, scratch):
    plus = (f64(x) + 1).astype(x.dtype)
    return ((2 * f64(plus)).astype(x.dtype), plus)


SPEC = SampleSpec(
    name="any_rank_scratch",
    kernel="any_rank_scratch",
    configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},  # right-aligned over the rank
    reference=ref_any_rank_scratch,
    extra_shapes=("x=1:f32,scratch=1:f32", "x=5x3:bf16,scratch=5x3:bf16"),
    notes="a rank-polymorphic loop storing into another parameter of the loop's shape",
)
