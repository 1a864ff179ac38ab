"""Expectations of samples/silu.py: 1-D hl.tile(n)."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_silu(x):
    v = f64(x)
    return ((v / (1.0 + np.exp(-v))).astype(x.dtype),)


SPEC = SampleSpec(
    name="silu",
    kernel="silu",
    configs={"b512": (512,), "b4096": (4096,)},
    reference=ref_silu,
    extra_shapes=("x=1:f32", "x=129:bf16"),
)
