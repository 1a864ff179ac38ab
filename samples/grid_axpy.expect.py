"""Expectations of samples/grid_axpy.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_grid_axpy(x, y, alpha=2.0):
    # float32 inputs: alpha * x rounded to float32, then the sum rounded once more
    scaled = (np.float32(alpha) * np.asarray(x, np.float32)).astype(np.float32)
    return ((scaled + np.asarray(y, np.float32)).astype(np.float32),)


SPEC = SampleSpec(
    name="grid_axpy",
    kernel="grid_axpy",
    # hl.grid(x.size()) runs as hl.tile(x.size()): right-aligned block sizes
    configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},
    reference=ref_grid_axpy,
    scalars=({}, {"alpha": -0.5}),
    extra_shapes=("x=7:f32,y=7:f32", "x=3x9x129:f32,y=3x9x129:f32"),
)
