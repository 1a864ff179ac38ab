"""Expectations of samples/row_gate.py: a per-row mask expanded to the block (view/expand with block
sizes).
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_row_gate(x, bias, scale):
    gated = np.where(x[:, :1] > 0, f64(x), 0.0).astype(x.dtype)
    return ((f64(gated * scale.astype(x.dtype)) + f64(bias)).astype(x.dtype),)


SPEC = SampleSpec(
    name="row_gate",
    kernel="row_gate",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_row_gate,
    extra_shapes=("x=1x1:f32,bias=1:f32,scale=1x1:f32",),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
)
