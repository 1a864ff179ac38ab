"""Expectations of samples/chunk_column_offsets.py: each element less the first of its chunk of 8
rows, per column.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_chunk_column_offsets(g):
    first = f64(g)[:, np.arange(g.shape[1]) // 8 * 8, :]
    return ((f64(g) - first).astype(g.dtype),)


SPEC = SampleSpec(
    name="chunk_column_offsets",
    kernel="chunk_column_offsets",
    configs={"none": ()},
    reference=ref_chunk_column_offsets,
    extra_shapes=("g=1x1x1:f32", "g=2x13x5:bf16"),
    # `out`'s blocks are revisited along the heads (its stores pick a column), so the loop
    # over rows cannot be the grid's last axis; it stores, so it streams nothing
    simulator_call="g=2x64x3:f32",
    loop_types=(("unroll",),),
    refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
    notes="a column at an inner loop's position and a column of its tile, computed b and h",
)
