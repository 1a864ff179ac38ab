"""Expectations of samples/atomic_contributions.py."""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_atomic_contributions(x):
    return ((1 + f64(x).sum(0)).astype(x.dtype),)


SPEC = SampleSpec(
    name="atomic_contributions",
    kernel="atomic_contributions",
    configs={"b1x8x128": (1, 8, 128), "b4x32x256": (4, 32, 256)},
    reference=ref_atomic_contributions,
    extra_shapes=("x=1x1x1:f32", "x=7x9x130:f32"),
    # Every contribution rounds the bfloat16 block once more.
    tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
    notes="the contributing axis is written outermost: the grid runs it innermost",
)
