"""Expectations of samples/row_sorts.py: sorts along a whole row."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_row_sorts(x):
    # Stable orders by position among equal values (bf16 rows have ties), as the module's.
    wide = f64(x)
    down = np.take_along_axis(x, np.argsort(-wide, axis=1, kind="stable"), axis=1)
    order = np.argsort(wide, axis=1, kind="stable").astype(np.int32)
    low_at = order[:, :4]
    return down, order, np.take_along_axis(x, low_at, axis=1), low_at


SPEC = SampleSpec(
    name="row_sorts",
    kernel="row_sorts",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_row_sorts,
    extra_shapes=("x=1x4:f32", "x=9x5:bf16", "x=16x128:f16"),
    notes="torch.sort/argsort/topk along a whole row",
)
