"""Expectations of samples/fixed_block_numbers.py: row sums times 256 / 128, in float32."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, SUM_TOLERANCE, SampleSpec


def ref_fixed_block_numbers(x):
    return ((f64(x).sum(axis=1) * 256.0 / 128.0).astype(np.float32),)


SPEC = SampleSpec(
    name="fixed_block_numbers",
    kernel="fixed_block_numbers",
    configs={"default": ()},
    reference=ref_fixed_block_numbers,
    extra_shapes=("x=7x129:f32", "x=16x256:bf16"),
    tolerance=SUM_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    notes="`tile.block_size` as a number under fixed blocks longer than the loop",
)
