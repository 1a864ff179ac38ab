"""Expectations of samples/attention_heads_merged.py."""

from __future__ import annotations

from expectations import PRODUCT_TOLERANCE, SampleSpec, attention64


def ref_attention_heads_merged(q, k, v):
    # per batch and head: the merged rows are one head's queries
    return (attention64(q, k, v, causal=False)[0],)


SPEC = SampleSpec(
    name="attention_heads_merged",
    kernel="attention_heads_merged",
    # batch, heads (not read: merged tiles have blocks of 1), queries, the inner loop's keys
    configs={"b1x1x64x32": (1, 1, 64, 32), "b2x4x128x256": (2, 4, 128, 256)},
    reference=ref_attention_heads_merged,
    extra_shapes=("q=1x1x1x8:f32,k=1x1x1x8:f32,v=1x1x1x8:f32", "q=3x1x9x16:bf16,k=3x1x130x16:bf16,v=3x1x130x16:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    notes="a reshape merging the batch and head tiles into the query rows",
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((3, "k", 2),),
)
