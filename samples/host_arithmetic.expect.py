"""Expectations of samples/host_arithmetic.py: host arithmetic on whole tensors, `.stride()`."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_host_arithmetic(x, y):
    # x.stride(0) of a contiguous array: the product of the later sizes (1 for a vector).
    row_stride = int(np.prod(x.shape[1:]))
    vx, vy = f64(x), f64(y)
    return (((vx - 1.0) * vy + 2.0 * (vy + row_stride) + vx).astype(x.dtype),)


SPEC = SampleSpec(
    name="host_arithmetic",
    kernel="host_arithmetic",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_host_arithmetic,
    extra_shapes=("x=1:f32,y=1:f32", "x=7x5:f32,y=7x5:f32", "x=9x129:bf16,y=9x129:bf16"),
    notes="host arithmetic on whole tensors; contiguous strides",
)
