"""Expectations of samples/jagged_matmul.py: segment g's rows times w[g] (torch.matmul keeps the
operands' dtype, then .to(float32)); the offsets cover every row.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64, torch_promote
from expectations import PRODUCT_TOLERANCE, SampleSpec, remember_shape, segment_offsets


def ref_jagged_matmul(x, w, offsets):
    out = np.zeros((x.shape[0], w.shape[2]))
    for g in range(len(offsets) - 1):
        out[offsets[g]:offsets[g + 1]] = f64(x)[offsets[g]:offsets[g + 1]] @ f64(w)[g]
    return (out.astype(torch_promote(x.dtype, w.dtype)).astype(np.float32),)


SPEC = SampleSpec(
    name="jagged_matmul",
    kernel="jagged_matmul",
    eager_reference=True,
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_jagged_matmul,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=9x128:f32,w=2x128x128:f32,offsets=3:i32",
                  "x=20x100:f32,w=3x100x7:f32,offsets=4:i32"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=(("unroll",),),
    refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((0, "x", 0),),
    notes="loop bounds read from a tensor; a product per segment, stored masked in place",
)
