"""Expectations of samples/bmm_whole_k.py: matrix products with the contracted dimension kept whole."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_attention_scores(q, k, scale):
    return ((scale * np.einsum("bmd,bnd->bmn", f64(q), f64(k))).astype(np.float32),)


SPEC = SampleSpec(
    name="bmm_whole_k",
    kernel="attention_scores",
    # block sizes for the batch, m and n tiles
    configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
    reference=ref_attention_scores,
    scalars=({}, {"scale": 0.5}),
    extra_shapes=("q=1x1x1:f32,k=1x1x1:f32", "q=3x9x16:bf16,k=3x129x16:bf16"),
    tolerance=PRODUCT_TOLERANCE,
)
