"""Expectations of samples/layer_norm.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

from expectations import SampleSpec, layer_norm64


def ref_layer_norm(x, weight, bias=None, eps=1e-5):
    out, _, _ = layer_norm64(x, weight, bias, eps)
    return (out.astype(x.dtype),)  # out = torch.empty([m, n], dtype=x.dtype)


SPEC = SampleSpec(
    name="layer_norm",
    kernel="layer_norm",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_layer_norm,
    scalars=({}, {"eps": 1e-3}),
    extra_shapes=("x=3x7:f32,weight=7:f32,bias=7:f32",),
)
