"""Expectations of samples/block_partial_sums.py: twice x, and x's column sums in float32."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_block_partial_sums(x):
    return ((2 * f64(x)).astype(x.dtype), f64(x).sum(0).astype(np.float32))


SPEC = SampleSpec(
    name="block_partial_sums",
    kernel="block_partial_sums",
    # the outer rows (registered), then the inner loop's; 24 and 16 misalign the windows
    configs={"b24x16": (24, 16), "b8x16": (8, 16), "b32x32": (32, 32)},
    reference=ref_block_partial_sums,
    extra_shapes=("x=1x1:f32", "x=9x3:bf16"),
    tolerance={BFLOAT16: (1e-2, 5e-2)},
    loop_types=(("unroll",),),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "x", 0),),
    notes="stores through windows of an inner loop starting inside its outer block",
)
