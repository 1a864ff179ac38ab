"""Expectations of samples/offset_rows.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_offset_rows(x, shift=3):
    # one difference per element, rounded once to x's dtype
    wide = np.asarray(x).astype(np.float64)
    return ((wide[shift:] - wide[: wide.shape[0] - shift]).astype(np.asarray(x).dtype),)


SPEC = SampleSpec(
    name="offset_rows",
    kernel="offset_rows",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_offset_rows,
    scalars=({}, {"shift": 1}),
    extra_shapes=("x=4x1:f32", "x=13x130:bf16"),
)
