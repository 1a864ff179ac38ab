"""Expectations of samples/stacked_planes.py: torch.stack of tile values along a new leading or
middle axis.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_stacked_planes(a, b, c):
    planes = np.stack([a, b, c])
    x, y, z = f64(a), f64(b), f64(c)
    # x + y and x * z round to the inputs' dtype first (bf16 arithmetic), then widen.
    pairs = np.stack([(x + y).astype(a.dtype), (x * z).astype(a.dtype)], axis=1)
    return planes, pairs.astype(np.float32)


SPEC = SampleSpec(
    name="stacked_planes",
    kernel="stacked_planes",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_stacked_planes,
    extra_shapes=("a=1x1:f32,b=1x1:f32,c=1x1:f32",),
    tolerance={BFLOAT16: (1e-2, 2e-2)},
)
