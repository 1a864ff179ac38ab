"""Expectations of samples/atomic_max_update.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_atomic_max_update(x, y):
    # The kernel's result (x's old contents), then the updated parameter x.
    return (x.copy(), np.maximum(x, y))


SPEC = SampleSpec(
    name="atomic_max_update",
    kernel="atomic_max_update",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_atomic_max_update,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=7x5:bf16"),
)
