"""Expectations of samples/group_scatter.py: row scatters from an inner loop of an `hl.grid` over
groups.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, distinct_indices_below, remember_shape


def ref_group_scatter(x, ids, per=4):
    out = np.zeros(x.shape)
    for g in range(ids.shape[0] // per):
        rows = np.asarray(ids[g * per : (g + 1) * per])
        out[rows] = f64(x)[rows] * (g + 1)
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="group_scatter",
    kernel="group_scatter",
    configs={"b8x128": (8, 128), "b2x256": (2, 256)},
    reference=ref_group_scatter,
    scalars=({"per": 4}, {"per": 8}),
    inputs={"x": remember_shape("x"), "ids": distinct_indices_below("x", 0)},
    extra_shapes=("x=8x1:f32,ids=8:i32", "x=16x520:bf16,ids=16:i32"),
    loop_types=(("unroll",),),
    # a loop of two dimensions, inside an hl.grid
    refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "x", 1),),
    notes="row scatters into columns of a resident block from an inner loop (moe_matmul_ogs)",
)
