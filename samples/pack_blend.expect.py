"""Expectations of samples/pack_blend.py: parameters that are lists, tuples or dicts of tensors."""

from __future__ import annotations

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_pack_blend(pair, gates):
    return tuple((f64(x) * f64(gates["scale"]) + f64(gates["bias"])).astype(x.dtype) for x in pair)


SPEC = SampleSpec(
    name="pack_blend",
    kernel="pack_blend",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_pack_blend,
    extra_shapes=("pair.0=1x1:f32,pair.1=1x1:f32,gates.scale=1:f32,gates.bias=1:f32",),
    tolerance={BFLOAT16: (2e-2, 5e-2)},
    notes="a list unpacked, a dict read by key, zip",
)
