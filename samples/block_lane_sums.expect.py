"""Expectations of samples/block_lane_sums.py: each row's sum of squares, in float32."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, SUM_TOLERANCE, SampleSpec


def ref_block_lane_sums(x):
    v = f64(x)
    return ((v * v).sum(axis=1).astype(np.float32),)


SPEC = SampleSpec(
    name="block_lane_sums",
    kernel="block_lane_sums",
    # the registered block_n (lanes), then tile_m
    configs={"b128x8": (128, 8), "b256x16": (256, 16)},
    reference=ref_block_lane_sums,
    extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    tolerance=SUM_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    notes="a registered block size as an allocation size before the loop tiling with it",
    inner_dims=((0, "x", 1),),
)
