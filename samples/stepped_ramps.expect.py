"""Expectations of samples/stepped_ramps.py: ramps with starts and steps."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_stepped_ramps(x, squared=True):
    v = f64(x.astype(np.float32))
    i = np.arange(x.shape[0], dtype=np.float64)
    shaped = v ** 2 * 2.0 if squared else np.abs(v) * 0.5
    return ((shaped + 2 * i + (i + 1) + 20).astype(np.float32),)


SPEC = SampleSpec(
    name="stepped_ramps",
    kernel="stepped_ramps",
    configs={"b32": (32,), "b128": (128,)},
    reference=ref_stepped_ramps,
    scalars=({}, {"squared": False}),
    extra_shapes=("x=1:f32", "x=129:bf16"),
    notes="hl.arange/torch.arange with starts and steps, .pow, a static conditional",
)
