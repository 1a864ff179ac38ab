"""Expectations of samples/paired_tile_sum.py: two loops' tiles over one range, paired row by row."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, segment_offsets


def ref_paired_tile_sum(x, y, offsets, block=16):
    # every pair of blocks (a, b) of a segment, counted from its start: row start + a*block + r
    # of x times row start + b*block + r of y, rows at or past the segment's end counting 0
    x, y = f64(x), f64(y)
    out = np.zeros((len(offsets) - 1,) + x.shape[1:])
    for g in range(len(offsets) - 1):
        start, end = int(offsets[g]), int(offsets[g + 1])
        for a in range(start, end, block):
            for b in range(start, end, block):
                rows = min(end - a, end - b, block)
                out[g] += (x[a:a + rows] * y[b:b + rows]).sum(axis=0)
    return (out.astype(np.float32),)


SPEC = SampleSpec(
    name="paired_tile_sum",
    kernel="paired_tile_sum",
    eager_reference=True,
    configs={"fixed": ()},  # blocks of 16 fixed in the source: the result depends on them
    reference=ref_paired_tile_sum,
    inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
    extra_shapes=("x=40x2x3:f32,y=40x2x3:f32,offsets=4:i32", "x=7x8x128:bf16,y=7x8x128:bf16,offsets=3:i32"),
    tolerance=SUM_TOLERANCE,
    # tile_i holds tile_j's loop, so only tile_j streams; blocks from the loop's begin rule
    # out emit_pipeline's index maps, and bounds read from a tensor rule out grid
    loop_types=(("unroll", "unroll"), ("unroll", "fori_loop")),
    refused_loop_types=(("unroll", "emit_pipeline"), ("unroll", "grid"), ("fori_loop", "unroll")),
    notes="tiles of two loops over one range read from a tensor, paired row by row (blocks "
    "from the loop's begin); most segment starts are not multiples of the block",
)
