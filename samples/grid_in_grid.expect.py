"""Expectations of samples/grid_in_grid.py: twice the next column (cyclically) plus the column's
index.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_grid_in_grid(x):
    v = f64(x)
    return ((2 * np.roll(v, -1, axis=1) + np.arange(x.shape[1])[None, :]).astype(x.dtype),)


SPEC = SampleSpec(
    name="grid_in_grid",
    kernel="grid_in_grid",
    configs={"none": ()},
    reference=ref_grid_in_grid,
    extra_shapes=("x=1x1:f32", "x=2x9:bf16"),
    tolerance={BFLOAT16: (1e-2, 5e-1)},
    # the inner hl.grid stores, so it streams nothing
    loop_types=(("grid",), ("unroll",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    notes="an inner hl.grid: tiles of one element, its index moving inside the kernel",
)
