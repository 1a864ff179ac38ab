"""Expectations of samples/tile_unpack.py."""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_scale_add_row(x, row):
    return ((f64(x) * 2 + f64(row)).astype(torch_promote(x.dtype, row.dtype)),)


SPEC = SampleSpec(
    name="tile_unpack",
    kernel="scale_add_row",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_scale_add_row,
    extra_shapes=("x=1x1:f32,row=1:f32", "x=7x5:bf16,row=5:bf16"),
)
