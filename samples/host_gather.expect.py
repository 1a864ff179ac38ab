"""Expectations of samples/host_gather.py: indexing whole tensors in host code."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec, indices_below, remember_shape


def ref_host_gather(x, idx):
    return ((f64(x)[idx][:, :-1] + 1.0).astype(x.dtype),)


SPEC = SampleSpec(
    name="host_gather",
    kernel="host_gather",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_host_gather,
    inputs={"x": remember_shape("x"), "idx": indices_below("x", 0)},
    extra_shapes=("x=1x2:f32,idx=1:i32", "x=20x136:f32,idx=3x5:i32"),
    notes="host-code gather and slice",
)
