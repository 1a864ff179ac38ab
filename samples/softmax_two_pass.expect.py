"""Expectations of samples/softmax_two_pass.py: a softmax in two inner-loop passes (the shared
ref_softmax).
"""

from __future__ import annotations

from expectations import SOFTMAX_TOLERANCE, SampleSpec, ref_softmax


SPEC = SampleSpec(
    name="softmax_two_pass",
    kernel="softmax_two_pass",
    configs={"b8x128": (8, 128), "b16x512": (16, 512)},
    reference=ref_softmax,
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    tolerance=SOFTMAX_TOLERANCE,
    # two sibling loops over the columns; the second stores, so it runs in-kernel
    loop_types=(("unroll", "unroll"), ("grid", "unroll"), ("emit_pipeline", "unroll"), ("fori_loop", "unroll")),
    refused_loop_types=(("unroll", "grid"), ("unroll", "emit_pipeline"), ("unroll", "fori_loop")),
    inner_dims=((1, "x", 1),),
)
