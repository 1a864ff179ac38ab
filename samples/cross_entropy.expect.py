"""Expectations of samples/cross_entropy.py: row-wise reductions kept whole in VMEM; losses are
float32 whatever the logits' dtype, the mean a 0-d float32.
"""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, cross_entropy_losses64, indices_below, remember_shape


def ref_cross_entropy(logits, labels):
    return (np.asarray(cross_entropy_losses64(logits, labels).mean()).astype(np.float32),)


SPEC = SampleSpec(
    name="cross_entropy",
    kernel="cross_entropy",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_cross_entropy,
    inputs={"logits": remember_shape("logits"), "labels": indices_below("logits", 1)},
    extra_shapes=("logits=1x1:f32,labels=1:i32", "logits=9x129:bf16,labels=9:i32"),
)
