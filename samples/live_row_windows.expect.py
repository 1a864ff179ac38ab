"""Expectations of samples/live_row_windows.py: loops over a loaded block's live rows."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_live_row_windows(x):
    # Each token once through the pair windows and half again through the row windows.
    return ((1.5 * f64(x).sum(0, keepdims=True)).astype(np.float32),)


SPEC = SampleSpec(
    name="live_row_windows",
    kernel="live_row_windows",
    # the tokens' tile: a block of 1 (every block partial for the pair loop), 4, 8
    configs={"b4": (4,), "b1": (1,), "b8": (8,)},
    reference=ref_live_row_windows,
    extra_shapes=("x=3x2x128:f32", "x=1x2x128:f32", "x=6x2x128:f32"),
    # the outer loop as grid axis or unrolled; the row loops tile no input
    loop_types=(("grid", "unroll", "unroll"), ("unroll", "unroll", "unroll")),
    refused_loop_types=(("emit_pipeline", "unroll", "unroll"),),
    # the tokens' tile (the rows of x that the inner loops window)
    inner_dims=((0, "x", 0),),
    tolerance={BFLOAT16: (1e-2, 5e-2)},
)
