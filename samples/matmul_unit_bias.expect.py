"""Expectations of samples/matmul_unit_bias.py."""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import ALL_STRATEGIES, PRODUCT_TOLERANCE, SampleSpec


def ref_matmul_bias(x, y, bias):
    # A size-1 axis of bias broadcasts along its tile, as numpy broadcasts it.
    dtype = torch_promote(x.dtype, y.dtype)
    return ((f64(x) @ f64(y) + f64(bias)).astype(dtype),)


SPEC = SampleSpec(
    name="matmul_unit_bias",
    kernel="matmul_bias",
    configs={"b8x128x128": (8, 128, 128), "b64x128x128": (64, 128, 128)},
    reference=ref_matmul_bias,
    extra_shapes=("x=1x1:f32,y=1x1:f32,bias=1x1:f32", "x=9x130:f32,y=130x129:f32,bias=1x129:f32"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((2, "x", 1),),
)
