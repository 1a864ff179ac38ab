"""Expectations of samples/host_clear_ends.py: x + y, then the first element 0 and the last 1 (x
updated in place).
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_host_clear_ends(x, y):
    out = (f64(x) + f64(y)).astype(x.dtype).reshape(-1)
    out[0] = 0.0
    out[-1] = 1.0
    return (out.reshape(x.shape),)


SPEC = SampleSpec(
    name="host_clear_ends",
    kernel="host_clear_ends",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_host_clear_ends,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=3x5:bf16,y=3x5:bf16"),
    notes="host stores through a view of an updated parameter, written back",
)
