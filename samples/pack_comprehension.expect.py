"""Expectations of samples/pack_comprehension.py: parameters that are lists, tuples or dicts of
tensors.
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_pack_comprehension(xs):
    # The host terms keep the inputs' dtype (a Python float does not promote).
    terms = [(f64(xs[0]) * 2.0 + 1.0).astype(xs[0].dtype), (f64(xs[1]) * 0.5 + 1.0).astype(xs[1].dtype)]
    return ((f64(terms[0]) + f64(terms[1])).astype(xs[0].dtype),)


SPEC = SampleSpec(
    name="pack_comprehension",
    kernel="pack_comprehension",
    configs={"b128": (128,), "b512": (512,)},
    reference=ref_pack_comprehension,
    extra_shapes=("xs.0=1:f32,xs.1=1:f32",),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="comprehensions over a tuple of tensors in host code",
)
