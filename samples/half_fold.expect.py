"""Expectations of samples/half_fold.py: the two halves of each row added, plus the positions 0 .. n
// 2 - 1.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_half_fold(x):
    half = x.shape[1] // 2
    v = f64(x)
    return ((v[:, :half] + v[:, half:] + np.arange(half)[None, :]).astype(np.float32),)


SPEC = SampleSpec(
    name="half_fold",
    kernel="half_fold",
    configs={"b8": (8,), "b64": (64,)},
    reference=ref_half_fold,
    extra_shapes=("x=1x2:f32", "x=9x130:bf16"),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="a computed allocation size, reshape size and hl.arange length",
    inner_dims=((0, "x", 0),),
)
