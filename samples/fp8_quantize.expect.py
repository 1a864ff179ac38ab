"""Expectations of samples/fp8_quantize.py: the float32 product, rounded once to E4M3 (as the
kernel's `.to()`).
"""

from __future__ import annotations

import numpy as np

from e2e_support import FLOAT8_E4M3FN, uniform
from expectations import SampleSpec


def ref_fp8_quantize(x, scale):
    product = x.astype(np.float32) * scale.astype(np.float32)[:, None]
    return (product.astype(FLOAT8_E4M3FN),)


SPEC = SampleSpec(
    name="fp8_quantize",
    kernel="fp8_quantize",
    configs={"b8x128": (8, 128), "b64x256": (64, 256)},
    reference=ref_fp8_quantize,
    inputs={"scale": uniform(0.25, 4.0)},
    extra_shapes=("x=1x1:f32,scale=1:f32", "x=9x130:bf16,scale=9:f32"),
    notes="an 8-bit float output (torch.float8_e4m3fn)",
)
