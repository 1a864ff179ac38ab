"""Expectations of samples/softmax_3d.py: a softmax over the last axis of a 3-D tensor (the shared
ref_softmax).
"""

from __future__ import annotations

from expectations import SOFTMAX_TOLERANCE, SampleSpec, ref_softmax


SPEC = SampleSpec(
    name="softmax_3d",
    kernel="softmax_3d",
    configs={"b1x8": (1, 8), "b2x32": (2, 32)},
    reference=ref_softmax,
    extra_shapes=("x=1x1x1:f32", "x=3x9x129:bf16"),
    tolerance=SOFTMAX_TOLERANCE,
)
