"""Expectations of samples/inner_2d_sum.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_batch_sum(x):
    return (f64(x).sum((1, 2)).astype(np.float32),)


SPEC = SampleSpec(
    name="inner_2d_sum",
    kernel="batch_sum",
    configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
    reference=ref_batch_sum,
    extra_shapes=("x=1x1x1:f32", "x=2x9x129:bf16"),
    tolerance={np.dtype(np.float32): (1e-5, 1e-2)},
    # a loop over two dimensions is not streamed
    loop_types=(("unroll",), ("grid",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    inner_dims=((1, "x", 1), (2, "x", 2)),
)
