"""Expectations of samples/gather_pairs.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, indices_below, remember_shape


def ref_gather_pairs(ids, weight):
    # exact: table rows (times 2) at a [batch, seq] grid of ids -> [batch, seq, dim]
    picked = np.asarray(weight)[ids.astype(np.int64)]
    return ((picked * 2).astype(picked.dtype),)


SPEC = SampleSpec(
    name="gather_pairs",
    kernel="gather_pairs",
    configs={"b8x8x128": (8, 8, 128), "b2x16x256": (2, 16, 256)},
    reference=ref_gather_pairs,
    inputs={"weight": remember_shape("weight"), "ids": indices_below("weight", 0)},
    extra_shapes=("weight=1x1:f32,ids=1x1:i32", "weight=5x130:bf16,ids=3x9:i32"),
)
