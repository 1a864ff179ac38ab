"""Expectations of samples/alloc_sizes.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_row_max_and_double(x):
    return (x.max(-1), (f64(x) * 2).astype(np.float32))


SPEC = SampleSpec(
    name="alloc_sizes",
    kernel="row_max_and_double",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_row_max_and_double,
    extra_shapes=("x=1x1:f32", "x=7x5:bf16"),
)
