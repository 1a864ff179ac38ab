"""Expectations of samples/debug_prints.py: print in host and device code (what it prints:
test_print.py).
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_debug_prints(x, scale):
    return ((f64(x) * scale).astype(x.dtype),)


SPEC = SampleSpec(
    name="debug_prints",
    kernel="debug_prints",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_debug_prints,
    extra_shapes=("x=1x1:f32",),
    tolerance={BFLOAT16: (1e-2, 2e-2)},
)
