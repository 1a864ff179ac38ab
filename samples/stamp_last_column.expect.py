"""Expectations of samples/stamp_last_column.py: twice x, the last column x's first."""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_stamp_last_column(x):
    out = 2 * f64(x)
    out[:, -1] = f64(x)[:, 0]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="stamp_last_column",
    kernel="stamp_last_column",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_stamp_last_column,
    extra_shapes=("x=1x1:f32", "x=7x5:bf16"),
    notes="a tile and a number on one axis: the tile's store scatters",
)
