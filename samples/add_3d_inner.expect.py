"""Expectations of samples/add_3d_inner.py."""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_add_3d(x, y):
    return ((f64(x) + f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


SPEC = SampleSpec(
    name="add_3d_inner",
    kernel="add_3d",
    # batch, then the inner loop's m and n (Helion's test config [1, 8, 128] first)
    configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
    reference=ref_add_3d,
    extra_shapes=("x=1x1x1:f32,y=1x1x1:f32", "x=2x9x129:bf16,y=2x9x129:bf16"),
    # the loop stores, so its inputs are not streamed
    loop_types=(("unroll",), ("grid",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "x", 1), (2, "x", 2)),
)
