"""Expectations of samples/rotate_rows.py: row r is twice row (r + 1) % rows."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_rotate_rows(x):
    return ((2 * np.roll(f64(x), -1, axis=0)).astype(x.dtype),)


SPEC = SampleSpec(
    name="rotate_rows",
    kernel="rotate_rows",
    configs={"none": ()},
    reference=ref_rotate_rows,
    extra_shapes=("x=1x1:f32", "x=3x5:bf16"),
    # the row loop as the grid's last axis or unrolled; it stores, so it streams nothing
    loop_types=(("grid",), ("unroll",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    notes="rows read and stored at an inner loop's position",
)
