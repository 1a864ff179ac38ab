"""Expectations of samples/wide_joins.py: joined axes and top-k widths computed from sizes."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_wide_joins(x, y, fill=0.0, spare=0):
    m = x.shape[0]
    both = np.concatenate([x, y], axis=1)
    padded = np.concatenate([f64(x), np.full((m, 128), fill)], axis=1).astype(np.float32)
    framed = np.concatenate(
        [np.zeros((m, spare)), np.full((m, 1), -np.inf), f64(both), np.zeros((m, y.shape[1]))],
        axis=1).astype(x.dtype)
    return both, padded, framed


SPEC = SampleSpec(
    name="wide_joins",
    kernel="wide_joins",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_wide_joins,
    scalars=({}, {"fill": -2.5, "spare": 3}, {"spare": 130}),
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x5:bf16,y=9x200:bf16"),
    tolerance={BFLOAT16: (1e-2, 2e-2)},
    notes="torch.cat/F.pad along whole axes, a pad by y.size(1): joined sizes computed from sizes",
)
