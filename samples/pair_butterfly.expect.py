"""Expectations of samples/pair_butterfly.py: each neighbouring pair (a, b) of a row -> (a + b, a -
b), in float32.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_pair_butterfly(x):
    v = f64(x).astype(np.float32).astype(np.float64)
    a, b = v[:, 0::2], v[:, 1::2]
    return (np.stack([a + b, a - b], axis=-1).reshape(x.shape).astype(x.dtype),)


SPEC = SampleSpec(
    name="pair_butterfly",
    kernel="pair_butterfly",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_pair_butterfly,
    extra_shapes=("x=1x2:f32", "x=3x6:bf16"),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="a view in pairs of a tile's block (`tile_d.block_size // 2, 2`), hl.split, hl.join",
)
