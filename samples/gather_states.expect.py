"""Expectations of samples/gather_states.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, indices_below, remember_shape


def ref_gather_states(slots, states):
    # exact: a copy of whole [heads, rows, width] states; [b] slots -> [b, heads, rows, width]
    return (np.asarray(states)[slots.astype(np.int64)],)


SPEC = SampleSpec(
    name="gather_states",
    kernel="gather_states",
    configs={"b8": (8,), "b128": (128,)},
    reference=ref_gather_states,
    inputs={"states": remember_shape("states"), "slots": indices_below("states", 0)},
    extra_shapes=("states=1x1x1x1:f32,slots=1:i32", "states=5x2x3x9:bf16,slots=13:i32"),
)
