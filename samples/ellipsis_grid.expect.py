"""Expectations of samples/ellipsis_grid.py: dst's column i is i + 1, src's twice that; the last
matrix of src then gains 0.5 (both in place, returned as (src, dst)).
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_ellipsis_grid(src, dst):
    b, m, n = src.shape
    cols = np.broadcast_to(np.arange(n, dtype=np.float64) + 1.0, (b, m, n))
    new_dst = cols.astype(dst.dtype)
    new_src = (2.0 * f64(new_dst)).astype(src.dtype)
    new_src[b - 1] = (f64(new_src[b - 1]) + 0.5).astype(src.dtype)
    return (new_src, new_dst)


SPEC = SampleSpec(
    name="ellipsis_grid",
    kernel="ellipsis_grid",
    configs={"default": ()},
    reference=ref_ellipsis_grid,
    extra_shapes=("src=1x1x1:f32,dst=1x1x1:f32", "src=3x9x5:bf16,dst=3x9x5:bf16"),
    notes="`dst[..., i]` and `src[b - 1, ..., j]` under hl.grid, in place",
)
