"""Expectations of samples/add.py: broadcast_tensors + promote_types + hl.tile(out.size())."""

from __future__ import annotations

import numpy as np

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_add(x, y):
    dtype = torch_promote(x.dtype, y.dtype)
    a, b = np.broadcast_arrays(f64(x), f64(y))
    return ((a + b).astype(dtype),)


SPEC = SampleSpec(
    name="add",
    kernel="add",
    # hl.tile(out.size()): right-aligned; rank 1 uses the last entry only.
    configs={"b8x128": (8, 128), "b16x512": (16, 512), "b2x8x256": (2, 8, 256)},
    reference=ref_add,
    extra_shapes=(
        "x=7x5:f32,y=5:f32",
        "x=100:bf16,y=100:bf16",
        "x=2x3x4:f32,y=1:f32",
        "x=2x3x16x256:f32,y=256:f32",
        "x=64x256:bf16,y=64x256:f16",
        # 8-bit inputs (blocks of 32 rows) promoted to float32 and to float16
        "x=64x256:i8,y=64x256:f32",
        "x=40x130:u8,y=130:f16",
    ),
)
