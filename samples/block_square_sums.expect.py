"""Expectations of samples/block_square_sums.py: the float32 column sums of squares of x, whatever
the blocks.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_block_square_sums(x):
    return ((f64(x) ** 2).sum(0).astype(np.float32),)


SPEC = SampleSpec(
    name="block_square_sums",
    kernel="block_square_sums",
    configs={"b8x8": (8, 8), "b16x8": (16, 8), "b32x16": (32, 16)},
    reference=ref_block_square_sums,
    extra_shapes=("x=1x1:f32", "x=9x130:f32", "x=300x128:bf16"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((1, "x", 0),),
    notes="per-block partials in a host array sized by a registered block size; x.new_full "
          "and x.new_zeros in device code; an inner loop over the block's range",
)
