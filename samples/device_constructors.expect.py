"""Expectations of samples/device_constructors.py: torch.zeros/ones/full in device code."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_device_constructors(x, y):
    return ((3 * f64(x) + f64(y)).astype(np.float32),)


SPEC = SampleSpec(
    name="device_constructors",
    kernel="device_constructors",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_device_constructors,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x129:bf16,y=9x129:bf16"),
)
