"""Expectations of samples/causal_attention.py: inner (nested) tile loops."""

from __future__ import annotations

from expectations import PRODUCT_TOLERANCE, SampleSpec, attention64


def ref_causal_attention_output(q_in, k_in, v_in):
    return (attention64(q_in, k_in, v_in, causal=True)[0],)


SPEC = SampleSpec(
    name="causal_attention",
    kernel="causal_attention_output",
    configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
    reference=ref_causal_attention_output,
    extra_shapes=("q_in=1x1x1x8:f32,k_in=1x1x1x8:f32,v_in=1x1x1x8:f32", "q_in=3x9x16:bf16,k_in=3x130x16:bf16,v_in=3x130x16:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    # 18 query blocks, the later ones with two key blocks (the last partial)
    simulator_call="q_in=1x1x140x32:f32,k_in=1x1x140x32:f32,v_in=1x1x140x32:f32",
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "k_in", -2),),
)
