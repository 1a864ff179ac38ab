"""Expectations of samples/cross_entropy_gather.py: losses = torch.zeros([n], dtype=logits.dtype),
then .mean().
"""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, cross_entropy_losses64, indices_below, remember_shape


def ref_cross_entropy_gather(logits, labels):
    return (np.asarray(cross_entropy_losses64(logits, labels).mean()).astype(logits.dtype),)


SPEC = SampleSpec(
    name="cross_entropy_gather",
    kernel="cross_entropy",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_cross_entropy_gather,
    inputs={"logits": remember_shape("logits"), "labels": indices_below("logits", 1)},
    extra_shapes=("logits=9x129:f32,labels=9:i32",),
)
