"""Expectations of samples/pack_accumulate.py: parameters that are lists, tuples or dicts of
tensors.
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_pack_accumulate(outs, x):
    # The kernel updates outs[0] and outs[1] in place; the module returns both.
    return (
        (f64(outs[0]) + f64(x)).astype(outs[0].dtype),
        (f64(outs[1]) * f64(x)).astype(outs[1].dtype),
    )


SPEC = SampleSpec(
    name="pack_accumulate",
    kernel="pack_accumulate",
    configs={"b128": (128,), "b512": (512,)},
    reference=ref_pack_accumulate,
    extra_shapes=("outs.0=1:f32,outs.1=1:f32,x=1:f32",),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="a list read by constant indices, two elements updated in place",
    simulator_call="outs.0=4096:f32,outs.1=4096:f32,x=4096:f32",
)
