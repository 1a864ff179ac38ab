"""Expectations of samples/block_means.py: the float32 column sums of x, whatever the block (means
times the block).
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec


def ref_block_means(x):
    return (f64(x).sum(0).astype(np.float32),)


SPEC = SampleSpec(
    name="block_means",
    kernel="block_means",
    configs={"b8": (8,), "b16": (16,), "b64": (64,)},
    reference=ref_block_means,
    extra_shapes=("x=1x1:f32", "x=9x130:f32", "x=300x128:bf16"),
    tolerance=SUM_TOLERANCE,
    notes="a registered block size as a host size (cdiv), a device number and a host factor",
)
