"""Expectations of samples/softmax.py: row-wise reductions kept whole in VMEM (the shared
ref_softmax).
"""

from __future__ import annotations

from expectations import SOFTMAX_TOLERANCE, SampleSpec, ref_softmax


SPEC = SampleSpec(
    name="softmax",
    kernel="softmax",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_softmax,
    extra_shapes=("x=1x1:f32", "x=7x5:bf16", "x=37x130:f16"),
    tolerance=SOFTMAX_TOLERANCE,
)
