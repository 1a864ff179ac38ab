"""Expectations of samples/column_pick.py: torch.gather of tile values along the sublane axis."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, indices_below, remember_shape


def ref_column_pick(x, index):
    return (np.take_along_axis(x, index, axis=0),)


SPEC = SampleSpec(
    name="column_pick",
    kernel="column_pick",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_column_pick,
    inputs={"x": remember_shape("x"), "index": indices_below("x", 0)},
    extra_shapes=("x=1x1:f32,index=1x1:i32", "x=5x3:f32,index=2x3:i32", "x=9x130:bf16,index=4x130:i32"),
    notes="torch.gather of tile values along the sublane axis",
)
