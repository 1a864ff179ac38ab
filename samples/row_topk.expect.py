"""Expectations of samples/row_topk.py: joined axes and top-k widths computed from sizes."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_row_topk(x, k=8):
    # Ties by position (bf16 rows have ties), as the module's selection takes the first.
    wide = f64(x)
    top_at = np.argsort(-wide, axis=1, kind="stable")[:, :k].astype(np.int32)
    low = np.sort(wide, axis=1)[:, : x.shape[1] // 2].astype(x.dtype)
    return np.take_along_axis(x, top_at, axis=1), top_at, low


SPEC = SampleSpec(
    name="row_topk",
    kernel="row_topk",
    configs={"b8": (8,), "b16": (16,)},
    reference=ref_row_topk,
    scalars=({}, {"k": 1}, {"k": 3}),
    extra_shapes=("x=1x8:f32", "x=9x12:bf16"),
    notes="torch.topk with a k from hl.specialize and n // 2: computed widths",
)
