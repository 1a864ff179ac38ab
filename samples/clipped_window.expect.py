"""Expectations of samples/clipped_window.py: Python's min/max of device scalars."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_clipped_window(x, lo, hi):
    position = np.arange(x.shape[0])
    return (np.where((position >= lo) & (position < hi), x, 0).astype(x.dtype),)


SPEC = SampleSpec(
    name="clipped_window",
    kernel="clipped_window",
    configs={"b128": (128,), "b1024": (1024,)},
    reference=ref_clipped_window,
    scalars=({}, {"lo": 0, "hi": 5000}, {"lo": 130, "hi": 131}, {"lo": 900, "hi": 100}),
    extra_shapes=("x=1:f32", "x=129:f32"),
)
