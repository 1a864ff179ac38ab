"""Expectations of samples/chained_view_bias.py: 2 x (+ bias along the rows), flattened."""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_chained_view_bias(x, bias=None):
    v = 2 * f64(x)
    if bias is not None:
        v = v + f64(bias)[None, :]
    return (v.reshape(-1).astype(x.dtype),)


SPEC = SampleSpec(
    name="chained_view_bias",
    kernel="chained_view_bias",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_chained_view_bias,
    extra_shapes=("x=1x1:f32,bias=1:f32", "x=9x130:bf16", "x=3x300:f32,bias=300:f32"),
    tolerance={BFLOAT16: (1e-2, 5e-2)},
    # the inner loop stores, so it streams nothing; the module holds it twice (with and
    # without bias)
    loop_types=(("grid", "grid"), ("unroll", "unroll"), ("grid", "unroll")),
    refused_loop_types=(("emit_pipeline", "grid"), ("unroll", "fori_loop")),
    inner_dims=((1, "x", 1),),
    notes="a tuple shape viewed in its statement; `bias is not None` inside an inner loop",
)
