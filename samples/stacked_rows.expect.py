"""Expectations of samples/stacked_rows.py: rows x, -1, 2 * y in x's dtype."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_stacked_rows(x, y):
    return (np.stack([f64(x), np.full(x.shape, -1.0), 2 * f64(y)]).astype(x.dtype),)


SPEC = SampleSpec(
    name="stacked_rows",
    kernel="stacked_rows",
    configs={"b128": (128,), "b512": (512,)},
    reference=ref_stacked_rows,
    extra_shapes=("x=1:f32,y=1:f32", "x=130:bf16,y=130:bf16"),
    simulator_call="x=1024:f32,y=1024:f32",
    notes="stores at rows 0 and 2 of one array: a sublane select, row 1 kept",
)
