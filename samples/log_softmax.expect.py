"""Expectations of samples/log_softmax.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec, log_softmax64


def ref_log_softmax(x):
    return (log_softmax64(f64(x)).astype(x.dtype),)


SPEC = SampleSpec(
    name="log_softmax",
    kernel="log_softmax",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_log_softmax,
    extra_shapes=("x=5x2:bf16",),
)
