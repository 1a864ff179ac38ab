"""Expectations of samples/int8_matmul_whole_k.py: exact integer products summed in int32 (no sum
here reaches 2**31).
"""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_int8_matmul_whole_k(x, y):
    return ((x.astype(np.int64) @ y.astype(np.int64)).astype(np.int32),)


def full_int8_range(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
    # every int8 value, -128 included: the largest products an int8 product can sum
    return rng.integers(-128, 127, size=shape, endpoint=True).astype(dtype)


SPEC = SampleSpec(
    name="int8_matmul_whole_k",
    kernel="int8_matmul_whole_k",
    configs={"b32x128": (32, 128), "b64x256": (64, 256)},  # 8-bit rows come in 32s
    reference=ref_int8_matmul_whole_k,
    inputs={"x": full_int8_range, "y": full_int8_range},
    extra_shapes=("x=1x1:i8,y=1x1:i8", "x=9x1030:i8,y=1030x129:i8", "x=40x130:i8,y=130x129:i8"),
    notes="hl.dot of int8 operands into an int32 accumulator, over a whole contraction",
)
