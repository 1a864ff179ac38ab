"""Expectations of samples/bias_gelu.py: x[tile_m, tile_n] + bias[tile_n], tanh GELU."""

from __future__ import annotations

import math

import numpy as np

from e2e_support import BFLOAT16, f64, torch_promote
from expectations import SampleSpec


def ref_bias_gelu(x, bias):
    v = f64(x) + f64(bias)[None, :]
    gelu = 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v**3)))
    return (gelu.astype(torch_promote(x.dtype, bias.dtype)),)


SPEC = SampleSpec(
    name="bias_gelu",
    kernel="bias_gelu",
    configs={"b8x128": (8, 128), "b64x256": (64, 256)},
    reference=ref_bias_gelu,
    extra_shapes=("x=7x5:f32,bias=5:f32", "x=1x1000:bf16,bias=1000:bf16"),
    # bf16 end to end: about ten roundings between x and the result
    tolerance={BFLOAT16: (3e-2, 3e-2)},
)
