"""Expectations of samples/top_rows.py: bounded slices of tensors."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_top_rows(x, scale=3.0):
    v = f64(x)
    # the rows from 8 less their first element, in x's dtype
    rest = (v[8:] - v[8:, :1]).astype(x.dtype)
    return (np.concatenate([(v[:8] * scale).astype(x.dtype), rest], axis=0),)


SPEC = SampleSpec(
    name="top_rows",
    kernel="top_rows",
    configs={"b128": (128,), "b256": (256,)},
    reference=ref_top_rows,
    scalars=({}, {"scale": -0.5}),
    extra_shapes=("x=1x1:f32", "x=9x129:f32"),
)
