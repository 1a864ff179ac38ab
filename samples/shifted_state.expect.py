"""Expectations of samples/shifted_state.py: each step plus the one before (init before the first)."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_shifted_state(x, init):
    v = f64(x)
    before = np.concatenate([f64(init)[None], v[:-1]])
    return ((v + before).astype(x.dtype),)


SPEC = SampleSpec(
    name="shifted_state",
    kernel="shifted_state",
    configs={"default": ()},
    reference=ref_shifted_state,
    extra_shapes=("x=1x1x1:f32,init=1x1:f32", "x=3x2x5:bf16,init=2x5:bf16"),
    loop_types=(("unroll",), ("grid",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    notes="a carried value rebound to another tensor's axes of the same lengths",
)
