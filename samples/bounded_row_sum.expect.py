"""Expectations of samples/bounded_row_sum.py: float32 sums of each row's first end[0] elements."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, shape_seen


def bound_below(name: str, axis: int):
    """A [1] int tensor holding a bound in [shape_of(name)[axis] // 2, shape_of(name)[axis]],
    `name` generated earlier in the same call (seldom a multiple of a block)."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "bound")
        n = bound[axis]
        return np.full(shape, rng.integers(n // 2, n + 1)).astype(dtype)

    return generate


def ref_bounded_row_sum(x, end):
    return (f64(x)[:, : int(end[0])].sum(axis=1).astype(np.float32),)


SPEC = SampleSpec(
    name="bounded_row_sum",
    kernel="bounded_row_sum",
    eager_reference=True,
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_bounded_row_sum,
    inputs={"x": remember_shape("x"), "end": bound_below("x", 1)},
    extra_shapes=("x=9x130:f32,end=1:i32", "x=3x7:bf16,end=1:i32"),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((1, "x", 1),),
    notes="an inner loop bounded by `end[0]`, an element no outer tile indexes",
)
