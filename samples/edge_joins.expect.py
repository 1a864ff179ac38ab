"""Expectations of samples/edge_joins.py: joins of literal-size windows."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SampleSpec


def ref_edge_joins(x, fill=-1.0):
    swapped = np.concatenate([x[:, 4:8], (f64(x[:, :4]) * 2).astype(x.dtype)], axis=1)
    m = x.shape[0]
    padded = np.concatenate(
        [np.full((m, 2), fill), f64(x[:, :4]), np.full((m, 3), -np.inf)], axis=1)
    return swapped, padded.astype(np.float32)


SPEC = SampleSpec(
    name="edge_joins",
    kernel="edge_joins",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_edge_joins,
    scalars=({}, {"fill": 0.5}),
    extra_shapes=("x=1x8:f32", "x=9x8:bf16"),
    tolerance={BFLOAT16: (1e-2, 2e-2)},
    notes="torch.cat and F.pad of literal-size windows",
)
