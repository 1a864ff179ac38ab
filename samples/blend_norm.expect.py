"""Expectations of samples/blend_norm.py: lerp, var_mean, add(alpha=), std/var with and without
Bessel's correction.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_blend_norm(x, y, w, eps):
    mix = f64(x) + w * (f64(y) - f64(x))
    mean = mix.mean(axis=1, keepdims=True)
    var = mix.var(axis=1, keepdims=True)
    out = (mix - mean) / np.sqrt(var + eps)
    spread = mix.std(axis=1, ddof=1) + mix.var(axis=1)
    return out.astype(x.dtype), spread.astype(np.float32)


SPEC = SampleSpec(
    name="blend_norm",
    kernel="blend_norm",
    configs={"none": ()},
    reference=ref_blend_norm,
    scalars=({}, {"w": 0.75, "eps": 1e-3}),
    extra_shapes=("x=1x2:f32,y=1x2:f32", "x=9x129:bf16,y=9x129:bf16"),
    tolerance={BFLOAT16: (2e-2, 5e-2), np.dtype(np.float32): (1e-4, 1e-3)},
)
