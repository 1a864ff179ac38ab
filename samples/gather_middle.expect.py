"""Expectations of samples/gather_middle.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, indices_below, remember_shape


def ref_gather_middle(x, channels):
    # exact: x[a, channels[b], 1:] -> [rows, k, features - 1]
    return (np.asarray(x)[:, channels.astype(np.int64), 1:],)


SPEC = SampleSpec(
    name="gather_middle",
    kernel="gather_middle",
    configs={"b8x8": (8, 8), "b1x128": (1, 128)},
    reference=ref_gather_middle,
    inputs={"x": remember_shape("x"), "channels": indices_below("x", 1)},
    extra_shapes=("x=1x1x2:f32,channels=1:i32", "x=3x5x2:f32,channels=9:i32"),
)
