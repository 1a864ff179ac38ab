"""Expectations of samples/rms_norm.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_rms_norm_fwd(x, weight, eps):
    v = f64(x)
    inv_rms = 1.0 / np.sqrt((v * v).mean(axis=-1) + eps)
    out = v * inv_rms[:, None] * f64(weight)
    return out.astype(x.dtype), inv_rms.astype(x.dtype)  # both allocated with x's dtype


SPEC = SampleSpec(
    name="rms_norm",
    kernel="rms_norm_fwd",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_rms_norm_fwd,
    scalars=({}, {"eps": 1e-3}),
    extra_shapes=("x=3x7:bf16,weight=7:bf16",),
)
