"""Expectations of samples/host_only.py: x as it is, and (x + y) * 0.5 + eps in the promoted dtype
(a Python float does not widen it).
"""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_host_only(x, y, eps):
    dtype = torch_promote(x.dtype, y.dtype)
    return x, ((f64(x) + f64(y)) * 0.5 + eps).astype(dtype)


SPEC = SampleSpec(
    name="host_only",
    kernel="host_only",
    configs={"default": ()},
    reference=ref_host_only,
    scalars=({}, {"eps": 0.25}),
    extra_shapes=("x=1:f32,y=1:f32", "x=3x9x130:bf16,y=9x1:bf16"),
    host_only=True,
    notes="no hl.tile/hl.grid loop (Helion refuses it): host jnp code, no pallas_call",
)
