"""Expectations of samples/attention_lse.py: inner (nested) tile loops."""

from __future__ import annotations

from expectations import PRODUCT_TOLERANCE, SampleSpec, attention64


def ref_attention_lse(q_in, k_in, v_in):
    # out in q's dtype, the base-2 LSE in float32 of shape q.shape[:-1]
    return attention64(q_in, k_in, v_in, causal=False)


SPEC = SampleSpec(
    name="attention_lse",
    kernel="attention",
    configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
    reference=ref_attention_lse,
    # float32 only, see attention_lse.shapes (bf16: pending/attention_lse_bf16.py)
    notes="float32 only: bf16 * Python float rounds the float (pending/scalar_mul_bf16.py)",
    extra_shapes=("q_in=1x1x1x8:f32,k_in=1x1x1x8:f32,v_in=1x1x1x8:f32", "q_in=1x3x9x16:f32,k_in=1x3x130x16:f32,v_in=1x3x130x16:f32"),
    tolerance=PRODUCT_TOLERANCE,
    simulator_call="q_in=1x2x12x32:f32,k_in=1x2x300x32:f32,v_in=1x2x300x32:f32",  # 4 x 3 steps
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "k_in", -2),),
)
