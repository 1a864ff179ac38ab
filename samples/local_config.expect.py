"""Expectations of samples/local_config.py: a kernel inside a function, reading the function's
config and SCALE.
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_local_scale_add(x, y):
    # The function's SCALE (0.25), not the module's (4.0); a Python float keeps x's dtype.
    return ((0.25 * f64(x) + f64(y)).astype(x.dtype),)


SPEC = SampleSpec(
    name="local_config",
    kernel="scale_add",
    # the no-config default is the decorator's cfg, (16, 128)
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_local_scale_add,
    extra_shapes=("x=7x5:f32,y=7x5:f32", "x=1x129:bf16,y=1x129:bf16"),
)
