"""Expectations of samples/optional_col_sums.py: x's column sums, and y's (or -1) below them,
float32.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_optional_col_sums(x, y, with_y=True):
    second = f64(y).sum(0) if with_y else np.full(x.shape[1], -1.0)
    return (np.stack([f64(x).sum(0), second]).astype(np.float32),)


SPEC = SampleSpec(
    name="optional_col_sums",
    kernel="optional_col_sums",
    configs={"b128x8": (128, 8), "b256x32": (256, 32)},
    reference=ref_optional_col_sums,
    scalars=({}, {"with_y": False}),
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x129:bf16,y=9x129:bf16"),
    loop_types=(("unroll",), ("grid",), ("fori_loop",), ("emit_pipeline",)),
    inner_dims=((1, "x", 0),),
    notes="a name bound on one branch of a static `if`, carried by the inner loop",
)
