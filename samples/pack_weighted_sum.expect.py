"""Expectations of samples/pack_weighted_sum.py: parameters that are lists, tuples or dicts of
tensors.
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_pack_weighted_sum(xs):
    acc = sum((i + 1) * f64(x) for i, x in enumerate(xs))
    return (acc.astype(xs[0].dtype),)


SPEC = SampleSpec(
    name="pack_weighted_sum",
    kernel="pack_weighted_sum",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_pack_weighted_sum,
    extra_shapes=("xs.0=1x1:f32,xs.1=1x1:f32,xs.2=1x1:f32",),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="a tuple of tensors, enumerate unrolled",
)
