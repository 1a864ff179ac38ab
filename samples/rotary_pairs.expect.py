"""Expectations of samples/rotary_pairs.py: the halves rotated by the angles, in float32, cast back
to x's dtype.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_rotary_pairs(x, cos, sin):
    v = f64(x)
    half = x.shape[1] // 2
    c = f64(cos).astype(np.float32).astype(np.float64)
    s = f64(sin).astype(np.float32).astype(np.float64)
    x1, x2 = v[:, :half], v[:, half:]
    return (np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=1).astype(x.dtype),)


SPEC = SampleSpec(
    name="rotary_pairs",
    kernel="rotary_pairs",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_rotary_pairs,
    extra_shapes=("x=1x2:f32,cos=1x1:f32,sin=1x1:f32", "x=9x6:bf16,cos=9x3:bf16,sin=9x3:bf16"),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="a computed reshape size (`d // 2`), hl.split and hl.join",
    inner_dims=((0, "x", 0),),
)
