"""Expectations of samples/static_params.py: str, torch.dtype and torch.device parameters; view_as,
.T; .stride().
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_static_params(x, flat_y, mode="add", acc_dtype=np.float32, device=None):
    dtype = np.dtype(acc_dtype)
    a = f64(x.astype(dtype))
    y = f64(flat_y.reshape(x.shape[::-1]).T.astype(dtype))
    row_stride = x.shape[1]
    return ((a + y if mode == "add" else a * y + row_stride).astype(dtype),)


SPEC = SampleSpec(
    name="static_params",
    kernel="static_params",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_static_params,
    scalars=(
        {},
        {"mode": "mul"},
        {"mode": "mul", "acc_dtype": BFLOAT16},
    ),
    extra_shapes=("x=1x1:f32,flat_y=1:f32", "x=9x129:bf16,flat_y=1161:bf16"),
    notes="str, dtype and device parameters",
)
