"""Expectations of samples/chunk_row_sums.py: the sum of each chunk's rows, per head, in float32."""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_chunk_row_sums(x, chunk=12):
    b, s, h, d = x.shape
    return (f64(x).reshape(b, s // chunk, chunk, h, d).sum(2).astype(x.dtype),)


SPEC = SampleSpec(
    name="chunk_row_sums",
    kernel="chunk_row_sums",
    configs={"b128-k8": (128, 8), "b256-k16": (256, 16)},
    reference=ref_chunk_row_sums,
    scalars=({}, {"chunk": 6}),
    extra_shapes=("x=1x12x1x1:f32", "x=2x36x3x5:bf16"),
    tolerance={BFLOAT16: (2e-2, 1e-1)},
    # the loop over a chunk's rows (12 or 6, so blocks of 8 and 16 leave partial ones),
    # named by the sequence it walks
    inner_dims=((1, "x", 1),),
    # the window reads `x` through a gather, so no input is tiled by the loop to stream
    loop_types=(("grid",), ("unroll",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    notes="an offset window (tile_c.begin * chunk + tile_k.index) beside scalar indices",
)
