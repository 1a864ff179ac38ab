"""Expectations of samples/python_loops.py: 1x + 3x + 5x stored one by one (each store rounds to x's
dtype), then v * (1 + 1/2 + ... + 1/taps), times 0.5 and -2.0, plus a and b, in float32.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_python_loops(x, a, b, taps=3):
    v = f64(x)
    out = np.zeros_like(v)
    for k in (1, 3, 5):
        out = f64((out + (v * k).astype(x.dtype).astype(np.float64)).astype(x.dtype))
    acc = v * sum(1.0 / (t + 1) for t in range(taps)) * 0.5 * -2.0 + f64(a) + f64(b)
    return ((out + acc.astype(np.float32).astype(x.dtype)).astype(x.dtype),)


SPEC = SampleSpec(
    name="python_loops",
    kernel="python_loops",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_python_loops,
    scalars=({}, {"taps": 1}, {"taps": 4}),
    extra_shapes=("x=1x1:f32,a=1x1:f32,b=1x1:f32", "x=9x129:bf16,a=9x129:bf16,b=9x129:bf16"),
    notes="`range` loops and loops over a list and a tuple of tensors, unrolled",
    # `out` comes in aliased (a loop reads it before storing it)
    simulator_call="x=32x256:f32,a=32x256:f32,b=32x256:f32",
)
