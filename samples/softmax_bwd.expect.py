"""Expectations of samples/softmax_bwd.py: y * (dy - sum(y * dy)); the store casts to grad_output's
dtype.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SOFTMAX_TOLERANCE, SampleSpec, softmax64


def ref_softmax_bwd(grad_output, softmax_output):
    y, dy = f64(softmax_output), f64(grad_output)
    return ((y * (dy - (y * dy).sum(axis=-1, keepdims=True))).astype(grad_output.dtype),)


def softmax_rows(rng, shape, dtype):
    """Rows of a softmax (positive, summing to 1 before rounding): softmax_bwd's `softmax_output`."""
    return softmax64(rng.standard_normal(shape)).astype(np.float32).astype(dtype)


SPEC = SampleSpec(
    name="softmax_bwd",
    kernel="softmax_bwd",
    # one block size per loop: rows, then each of the two column loops
    configs={"b8x128x128": (8, 128, 128), "b16x512x256": (16, 512, 256)},
    reference=ref_softmax_bwd,
    inputs={"softmax_output": softmax_rows},
    extra_shapes=("grad_output=1x1:f32,softmax_output=1x1:f32", "grad_output=9x129:bf16,softmax_output=9x129:bf16"),
    # the result is ~y ~ 1/n: relative, as for the softmaxes (bf16 products summed in f32)
    tolerance=SOFTMAX_TOLERANCE,
    loop_types=(("unroll", "unroll"), ("grid", "unroll"), ("emit_pipeline", "unroll"), ("fori_loop", "unroll")),
    refused_loop_types=(("unroll", "grid"), ("unroll", "emit_pipeline"), ("unroll", "fori_loop")),
    inner_dims=((1, "grad_output", 1), (2, "grad_output", 1)),
)
