"""Expectations of samples/any_rank_unit_axes.py."""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_add_unit_axes(x, y):
    return ((f64(x) + f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


SPEC = SampleSpec(
    name="any_rank_unit_axes",
    kernel="add_unit_axes",
    # right-aligned over the rank, as for `add`
    configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},
    reference=ref_add_unit_axes,
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=1x1:bf16"),
)
