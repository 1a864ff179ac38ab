"""Expectations of samples/sorted_pair.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_sorted_pair(x, y):
    return (np.minimum(x, y), np.maximum(x, y))


SPEC = SampleSpec(
    name="sorted_pair",
    kernel="sorted_pair",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_sorted_pair,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=7x5:bf16"),
)
