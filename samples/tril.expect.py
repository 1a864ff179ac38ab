"""Expectations of samples/tril.py: the elements on or below the diagonal, zeros elsewhere; x's
dtype.
"""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec


def ref_tril(x):
    return (np.tril(x),)


SPEC = SampleSpec(
    name="tril",
    kernel="tril",
    # square and oblong blocks, so block rows and columns start at different indices
    configs={"b8x128": (8, 128), "b32x256": (32, 256), "b256x128": (256, 128)},
    reference=ref_tril,
    extra_shapes=("x=1x1:f32", "x=9x129:bf16", "x=130x7:f32"),
)
