"""Expectations of samples/cross_entropy_pick.py: per-row losses, float32 whatever the logits'
dtype.
"""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, cross_entropy_losses64, indices_below, remember_shape


def ref_cross_entropy_pick(logits, labels):
    return (cross_entropy_losses64(logits, labels).astype(np.float32),)


SPEC = SampleSpec(
    name="cross_entropy_pick",
    kernel="cross_entropy_pick",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_cross_entropy_pick,
    inputs={"logits": remember_shape("logits"), "labels": indices_below("logits", 1)},
    extra_shapes=("logits=1x1:f32,labels=1:i32", "logits=9x129:bf16,labels=9:i32"),
)
