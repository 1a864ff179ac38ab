"""Expectations of samples/block_size_names.py: `block_m, block_n = v.size()` as sizes,
`.squeeze(0)` of a tile's dimension.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_block_size_names(x, keep):
    return (np.where((np.asarray(keep) != 0)[:, None], f64(x), 0.0).astype(x.dtype),)


SPEC = SampleSpec(
    name="block_size_names",
    kernel="block_size_names",
    configs={"b8x128": (8, 128), "b16x256": (16, 256), "b1x128": (1, 128)},
    reference=ref_block_size_names,
    extra_shapes=("x=1x1:f32,keep=1:i32", "x=33x129:bf16,keep=33:i32"),
    notes="a tile value's sizes as names in .view()/.expand(); .squeeze(0) of a tile's dim",
)
