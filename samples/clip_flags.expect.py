"""Expectations of samples/clip_flags.py: two outputs, torch.where, comparisons, an int parameter."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_clip_flags(x, lo, hi, label):
    v = f64(x)
    clipped = np.minimum(np.maximum(v, lo), hi).astype(x.dtype)
    flags = np.where(v > hi, -label, np.where(v < lo, label, 0)).astype(np.int32)
    return clipped, flags


SPEC = SampleSpec(
    name="clip_flags",
    kernel="clip_flags",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_clip_flags,
    scalars=({}, {"lo": -1.0, "hi": 0.25, "label": 7}),
    extra_shapes=("x=1x1:f32", "x=9x1025:f32"),
)
