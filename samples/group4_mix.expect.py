"""Expectations of samples/group4_mix.py: the float32 product of x and each weight[h], each group of
four neighbouring columns plus its total.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import ALL_STRATEGIES, PRODUCT_TOLERANCE, SampleSpec


def ref_group4_mix(x, weight):
    p = np.einsum("mk,hkd->hmd", f64(x), f64(weight))
    h, m, d = p.shape
    g = p.reshape(h, m, d // 4, 4)
    return ((g + g.sum(-1, keepdims=True)).reshape(h, m, d).astype(x.dtype),)


SPEC = SampleSpec(
    name="group4_mix",
    kernel="group4_mix",
    # tile_h, tile_m, tile_d, then the inner tile_k
    configs={"b1x8x128x32": (1, 8, 128, 32), "b2x16x256x128": (2, 16, 256, 128)},
    reference=ref_group4_mix,
    extra_shapes=("x=1x1:f32,weight=1x1x4:f32",),
    tolerance={**PRODUCT_TOLERANCE, BFLOAT16: (2e-2, 1e-1)},
    loop_types=ALL_STRATEGIES,
    inner_dims=((3, "x", 1),),
    notes="groups of four as two axes of 2 (`tile_d.block_size // 4, 2, 2`) of a product",
)
