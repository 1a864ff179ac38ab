"""Expectations of samples/accumulate_views.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_accumulate(total, x, count):
    return ((f64(total) + f64(x)).astype(total.dtype), (count.astype(np.int64) + 1).astype(count.dtype))


SPEC = SampleSpec(
    name="accumulate_views",
    kernel="accumulate",
    configs={"b128": (128,), "b2048": (2048,)},
    reference=ref_accumulate,
    extra_shapes=("total=1:f32,x=1:f32,count=1:i32", "total=3x43:f32,x=3x43:f32,count=129:i32"),
)
