"""Expectations of samples/helper_calls.py: helper functions of the file, inlined at each call."""

from __future__ import annotations

import math

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_helper_gelu(x, bias):
    def gelu(v):
        return 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v**3)))

    v = f64(x)
    return (((gelu(v + f64(bias)[None, :]) + 0.5) - (gelu(v) - 2.0)).astype(x.dtype),)


SPEC = SampleSpec(
    name="helper_calls",
    kernel="helper_gelu",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_helper_gelu,
    extra_shapes=("x=7x5:f32,bias=5:f32", "x=1x129:f32,bias=129:f32"),
)
