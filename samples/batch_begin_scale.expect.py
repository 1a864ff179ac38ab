"""Expectations of samples/batch_begin_scale.py: each batch's rows times its scale row."""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_batch_begin_scale(x, scale):
    return ((f64(x) * f64(scale)[:, None, :]).astype(torch_promote(x.dtype, scale.dtype)),)


SPEC = SampleSpec(
    name="batch_begin_scale",
    kernel="batch_begin_scale",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_batch_begin_scale,
    extra_shapes=("x=1x1x1:f32,scale=1x1:f32", "x=2x9x5:bf16,scale=2x5:bf16"),
    notes="tile_b.begin of a one-element tile in the index maps",
)
