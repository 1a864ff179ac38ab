"""Expectations of samples/attention.py: inner (nested) tile loops."""

from __future__ import annotations

from expectations import PRODUCT_TOLERANCE, SampleSpec, attention64


def ref_attention_output(q_in, k_in, v_in):
    return (attention64(q_in, k_in, v_in, causal=False)[0],)


SPEC = SampleSpec(
    name="attention",
    kernel="attention_output",
    # batch * heads, queries, then the inner loop's keys
    configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
    reference=ref_attention_output,
    extra_shapes=("q_in=1x1x1x8:f32,k_in=1x1x1x8:f32,v_in=1x1x1x8:f32", "q_in=3x9x16:bf16,k_in=3x130x16:bf16,v_in=3x130x16:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    simulator_call="q_in=1x2x12x32:f32,k_in=1x2x300x32:f32,v_in=1x2x300x32:f32",  # 4 x 3 steps
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "k_in", -2),),
)
