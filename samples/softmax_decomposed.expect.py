"""Expectations of samples/softmax_decomposed.py: the decomposed softmax (the shared ref_softmax)."""

from __future__ import annotations

from expectations import SOFTMAX_TOLERANCE, SampleSpec, ref_softmax


SPEC = SampleSpec(
    name="softmax_decomposed",
    kernel="softmax_decomposed",
    configs={"b8": (8,), "b64": (64,)},
    reference=ref_softmax,
    extra_shapes=("x=3x1:f32", "x=9x129:bf16"),
    tolerance=SOFTMAX_TOLERANCE,
)
