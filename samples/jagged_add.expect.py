"""Expectations of samples/jagged_add.py: segment g's rows plus bias[g], in x's dtype (offsets cover
every row).
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec, remember_shape, segment_offsets


def ref_jagged_add(x, bias, offsets):
    out = f64(x).copy()
    for g in range(len(offsets) - 1):
        out[offsets[g]:offsets[g + 1]] += f64(bias)[g]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="jagged_add",
    kernel="jagged_add",
    eager_reference=True,
    # the inner loop's rows
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_jagged_add,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=9x128:f32,bias=2x128:f32,offsets=3:i32",
                  "x=33x7:bf16,bias=5x7:bf16,offsets=6:i32"),
    # the loop stores (nothing to stream) and its bounds are read from a tensor (no grid)
    loop_types=(("unroll",),),
    refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((0, "x", 0),),
    notes="loop bounds read from a tensor; stores masked in place",
)
