"""Expectations of samples/dtype_branch.py: dtype tests in host code."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_dtype_add(x, y):
    # bfloat16 adds in (and returns) float32; other dtypes keep theirs.
    acc = np.float32 if x.dtype == BFLOAT16 else x.dtype
    return ((f64(x) + f64(y)).astype(acc),)


SPEC = SampleSpec(
    name="dtype_branch",
    kernel="dtype_add",
    configs={"b8x128": (8, 128), "b32x512": (32, 512)},
    reference=ref_dtype_add,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x129:bf16,y=9x129:bf16"),
)
