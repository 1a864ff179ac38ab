"""Expectations of samples/neighbour_diff.py: bounded slices of tensors."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_neighbour_diff(x):
    v = f64(x)
    return ((v[:, 1:] - v[:, :-1]).astype(x.dtype),)


SPEC = SampleSpec(
    name="neighbour_diff",
    kernel="neighbour_diff",
    configs={"b8": (8,), "b64": (64,)},
    reference=ref_neighbour_diff,
    extra_shapes=("x=9x2:f32", "x=16x5:f32"),
)
