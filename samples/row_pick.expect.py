"""Expectations of samples/row_pick.py: torch.gather of tile values along the lane axis."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, indices_below, remember_shape


def ref_row_pick(x, index, scale):
    return ((scale * np.take_along_axis(f64(x), index, axis=1)).astype(np.float32),)


SPEC = SampleSpec(
    name="row_pick",
    kernel="row_pick",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_row_pick,
    inputs={"x": remember_shape("x"), "index": indices_below("x", 1)},
    scalars=({}, {"scale": -0.5}),
    extra_shapes=("x=1x1:f32,index=1x1:i32", "x=3x5:f32,index=3x2:i32", "x=40x130:f16,index=40x77:i32",
                  "x=40x300:i8,index=40x77:i32"),
)
