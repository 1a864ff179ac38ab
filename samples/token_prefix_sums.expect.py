"""Expectations of samples/token_prefix_sums.py: start + the running sum over tokens, in float32,
cast to x's dtype.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_token_prefix_sums(x, start):
    return ((f64(start) + np.cumsum(f64(x), axis=0)).astype(x.dtype),)


SPEC = SampleSpec(
    name="token_prefix_sums",
    kernel="token_prefix_sums",
    configs={"b4": (4,), "b1": (1,), "b8": (8,)},
    reference=ref_token_prefix_sums,
    extra_shapes=("x=1x1:f32,start=1x1:f32", "x=3x5:f32,start=1x5:f32"),
    loop_types=(("grid", "unroll"), ("unroll", "unroll")),
    refused_loop_types=(("emit_pipeline", "unroll"),),
    inner_dims=((0, "x", 0),),
    tolerance={BFLOAT16: (2e-2, 1e-1)},
    notes="one row stored at outer.begin + local.begin per step",
)
