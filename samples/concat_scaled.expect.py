"""Expectations of samples/concat_scaled.py: bounded slices of tensors."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_concat_scaled(a, b):
    # the second half is computed in b's dtype, then cast to a's (out's) dtype
    halved = (f64(b) * 0.5).astype(b.dtype)
    return (np.concatenate([f64(a), f64(halved)], axis=1).astype(a.dtype),)


SPEC = SampleSpec(
    name="concat_scaled",
    kernel="concat_scaled",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_concat_scaled,
    extra_shapes=("a=9x129:f32,b=9x1:f32", "a=16x3:f32,b=16x2:f32"),
)
