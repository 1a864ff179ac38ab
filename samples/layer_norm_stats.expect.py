"""Expectations of samples/layer_norm_stats.py: row-wise reductions kept whole in VMEM."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, layer_norm64


def ref_layer_norm_fwd(x, weight, bias=None, eps=1e-5):
    out, mean, rstd = layer_norm64(x, weight, bias, eps)
    return out.astype(x.dtype), mean.astype(np.float32), rstd.astype(np.float32)


SPEC = SampleSpec(
    name="layer_norm_stats",
    kernel="layer_norm_fwd",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_layer_norm_fwd,
    scalars=({}, {"eps": 1e-3}),
    extra_shapes=("x=3x7:bf16,weight=7:bf16",),
)
