"""Expectations of samples/block_diag_matmul.py: matrix products with the contracted dimension kept
whole.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import PRODUCT_TOLERANCE, SampleSpec


def ref_block_diag_matmul(x, w):
    # Column blocks of 128 (the whole of n when n <= 128, which is the same thing).
    a, b = f64(x), f64(w)
    out = np.empty_like(a)
    for j in range(0, a.shape[1], 128):
        out[:, j : j + 128] = a[:, j : j + 128] @ b[j : j + 128, j : j + 128]
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="block_diag_matmul",
    kernel="block_diag_matmul",
    # block_size=[None, 128]: one tunable block size (rows). The contracted dimension is the
    # column tile itself, whose last block is partial when n % 128 != 0: its padding (NaN in
    # the interpreter) must be masked out of the sums.
    configs={"b8": (8,), "b64": (64,)},
    reference=ref_block_diag_matmul,
    extra_shapes=("x=1x1:f32,w=1x1:f32", "x=9x130:bf16,w=130x130:bf16", "x=20x257:f32,w=257x257:f32"),
    tolerance=PRODUCT_TOLERANCE,
)
