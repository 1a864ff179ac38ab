"""Expectations of samples/splat_view.py: each row scaled by its sum (in float32), in x's dtype and
shape.
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_splat_view(x):
    v = f64(x)
    return ((v * v.sum(-1, keepdims=True)).astype(x.dtype),)


SPEC = SampleSpec(
    name="splat_view",
    kernel="splat_view",
    configs={"b8": (8,), "b64": (64,)},
    reference=ref_splat_view,
    extra_shapes=("x=1x1:f32", "x=2x3x9x5:bf16"),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="`*x.size()[:-1]` in a host view's sizes",
)
