"""Expectations of samples/window_row_sum.py: float32 sums of each row's columns bounds[0] to
bounds[1].
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, shape_seen


def window_below(name: str, axis: int):
    """A [2] int tensor (begin, end), 0 <= begin <= end <= shape_of(name)[axis], `name`
    generated earlier in the same call: begin inside the first half, end in the second."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "window")
        n = bound[axis]
        return np.array([rng.integers(0, n // 2 + 1), rng.integers(n // 2, n + 1)]).astype(dtype)

    return generate


def ref_window_row_sum(x, bounds):
    return (f64(x)[:, int(bounds[0]) : int(bounds[1])].sum(axis=1).astype(np.float32),)


SPEC = SampleSpec(
    name="window_row_sum",
    kernel="window_row_sum",
    eager_reference=True,
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_window_row_sum,
    inputs={"x": remember_shape("x"), "bounds": window_below("x", 1)},
    extra_shapes=("x=9x130:f32,bounds=2:i32", "x=3x7:bf16,bounds=2:i32"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((1, "x", 1),),
    notes="an inner loop from `bounds[0]` to `bounds[1]`, read in the kernel",
)
