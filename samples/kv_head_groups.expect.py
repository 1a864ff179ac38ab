"""Expectations of samples/kv_head_groups.py: query head h times kv head h // (heads // kv_heads)."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_kv_head_groups(q, kv):
    groups = q.shape[0] // kv.shape[0]
    return ((f64(q) * np.repeat(f64(kv), groups, axis=0)).astype(q.dtype),)


SPEC = SampleSpec(
    name="kv_head_groups",
    kernel="kv_head_groups",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_kv_head_groups,
    extra_shapes=("q=1x1x1:f32,kv=1x1x1:f32", "q=6x9x5:bf16,kv=3x9x5:bf16"),
    # the inner loop stores, so it streams nothing
    loop_types=(("grid",), ("unroll",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    inner_dims=((0, "q", 1),),
    notes="an index computed in the kernel from the outer tile (h // groups) in an index map",
)
