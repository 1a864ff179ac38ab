"""Expectations of samples/jagged_scale_2d.py: segment g's rows times scales[g], in x's dtype
(offsets cover every row).
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec, remember_shape, segment_offsets


def ref_jagged_scale_2d(x, scales, offsets):
    out = f64(x).copy()
    for g in range(len(offsets) - 1):
        out[offsets[g]:offsets[g + 1]] *= f64(scales)[g]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="jagged_scale_2d",
    eager_reference=True,
    kernel="jagged_scale_2d",
    # the inner loop's rows (bounds read from offsets), then its columns
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_jagged_scale_2d,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=9x7:f32,scales=2:f32,offsets=3:i32",),
    loop_types=(("unroll",),),
    refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((0, "x", 0), (1, "x", 1)),
    notes="a 2-D inner tile mixing a bound read from a tensor with a host int",
)
