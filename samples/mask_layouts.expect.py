"""Expectations of samples/mask_layouts.py: x viewed as [m, 4, 32], NaNs as 0, negated where the
group's maximum is not positive or the row is not kept.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_mask_layouts(x, keep):
    rows = f64(x).reshape(x.shape[0], 4, 32)
    clean = np.where(np.isnan(rows), 0.0, rows)
    ok = np.asarray(keep)[:, None] & (clean.max(axis=2) > 0)
    return (np.where(ok[:, :, None], clean, -clean).astype(x.dtype),)


SPEC = SampleSpec(
    name="mask_layouts",
    kernel="mask_layouts",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_mask_layouts,
    extra_shapes=("x=1x2x64:f32,keep=1:bool", "x=9x2x64:bf16,keep=9:bool"),
    inner_dims=((0, "x", 0),),  # the rows' loop
    notes="masks on new last axes (of a tile's rows, a bool input, a reduction's results), "
    "isnan of narrow values, a view regrouping the minor axes",
)
