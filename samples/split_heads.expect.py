"""Expectations of samples/split_heads.py: twice x, its first axis split into (bh // heads, heads)."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_split_heads(x, heads=2):
    bh, s, d = x.shape
    return ((2 * f64(x)).reshape(bh // heads, heads, s, d).astype(x.dtype),)


SPEC = SampleSpec(
    name="split_heads",
    kernel="split_heads",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_split_heads,
    scalars=({}, {"heads": 3}),
    extra_shapes=("x=6x1x1:f32", "x=6x9x5:bf16"),
    loop_types=(("grid",), ("unroll",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    inner_dims=((0, "x", 1),),
    notes="b = bh // heads, h = bh % heads of an hl.grid index in an index map",
)
