"""Expectations of samples/last_scale_rows.py: x's rows of out are x times the last scale; the
others unchanged.
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_last_scale_rows(x, out, scale):
    result = f64(out).copy()
    result[: x.shape[0]] = f64(x) * f64(scale)[-1]
    return (result.astype(out.dtype),)


SPEC = SampleSpec(
    name="last_scale_rows",
    kernel="last_scale_rows",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_last_scale_rows,
    extra_shapes=("x=1x1:f32,out=2x1:f32,scale=1:f32", "x=5x3:f32,out=5x3:f32,scale=2:f32"),
    loop_types=(("unroll",),),
    refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((0, "x", 0),),
    notes="an inner loop short of its output's rows: masked in the resident block",
)
