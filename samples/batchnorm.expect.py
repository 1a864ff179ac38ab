"""Expectations of samples/batchnorm.py: hl.grid over the batch, stat[None, :]."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64, uniform
from expectations import SampleSpec


def ref_batchnorm(x, mean, var, weight, bias, eps):
    normed = (f64(x) - f64(mean)) / np.sqrt(f64(var) + eps) * f64(weight) + f64(bias)
    # out = torch.empty_like(x): whatever the statistics' dtype, the store casts to x's dtype.
    return (normed.astype(x.dtype),)


SPEC = SampleSpec(
    name="batchnorm",
    kernel="batchnorm",
    # hl.grid only: the kernel has no tunable block size, so the one explicit config is
    # empty (the no-config default is tested separately).
    configs={"none": ()},
    reference=ref_batchnorm,
    scalars=({}, {"eps": 1e-3}),
    inputs={"var": uniform(0.5, 2.0)},
    extra_shapes=(
        "x=1x1x1:f32,mean=1:f32,var=1:f32,weight=1:f32,bias=1:f32",
        "x=2x8x128:f32,mean=128:f32,var=128:f32,weight=128:f32,bias=128:f32",
    ),
    # bf16 statistics: x - mean, * inv_std, * weight, + bias each round to bf16
    tolerance={BFLOAT16: (3e-2, 5e-2)},
)
