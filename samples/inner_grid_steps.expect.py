"""Expectations of samples/inner_grid_steps.py: x[i, j] - x[i, 0] at columns 0, stride, ...; zeros
elsewhere.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_inner_grid_steps(x, stride=4):
    v = f64(x)
    out = np.zeros_like(v)
    out[:, ::stride] = v[:, ::stride] - v[:, :1]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="inner_grid_steps",
    kernel="inner_grid_steps",
    configs={"none": ()},
    reference=ref_inner_grid_steps,
    scalars=({}, {"stride": 3}, {"stride": 1}, {"stride": 200}),
    extra_shapes=("x=1x1:f32", "x=2x9:bf16"),
    tolerance={BFLOAT16: (1e-2, 1e-1)},
    # the inner hl.grid stores, so it streams nothing
    loop_types=(("grid",), ("unroll",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    notes="an inner hl.grid(end, step=stride) with a step known when the kernel is called",
)
