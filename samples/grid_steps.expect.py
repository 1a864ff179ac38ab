"""Expectations of samples/grid_steps.py: 2 x + j at rows 1, 3, ... and columns 0, 3, ...; zeros
elsewhere.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_grid_steps(x):
    v = f64(x)
    out = np.zeros_like(v)
    out[1::2, 0::3] = 2 * v[1::2, 0::3] + np.arange(0, x.shape[1], 3)[None, :]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="grid_steps",
    kernel="grid_steps",
    configs={"none": ()},
    reference=ref_grid_steps,
    extra_shapes=("x=2x1:f32", "x=2x4:f32", "x=5x37:bf16"),
    tolerance={BFLOAT16: (1e-2, 5e-1)},
    notes="hl.grid(begins, ends, steps): grid steps counted from 0, indices begin + k * step",
)
