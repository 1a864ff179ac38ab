"""Expectations of samples/fp8_matmul.py: 8-bit operands widen exactly; (x @ y) * scale rounded once
to bfloat16.
"""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_fp8_matmul(x, y, scale=0.5):
    return (((f64(x) @ f64(y)) * scale).astype(BFLOAT16),)


SPEC = SampleSpec(
    name="fp8_matmul",
    kernel="fp8_matmul",
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_fp8_matmul,
    scalars=({}, {"scale": 2.0}),
    # the kernel takes any float operands: the harness's float32 and bfloat16 calls too
    extra_shapes=("x=1x1:f8e4m3,y=1x1:f8e5m2", "x=9x130:f8e5m2,y=130x129:f8e4m3",
                  "x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
    notes="hl.dot of 8-bit float operands into a float32 accumulator",
    loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "x", 1),),
)
