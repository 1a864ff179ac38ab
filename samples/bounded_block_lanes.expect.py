"""Expectations of samples/bounded_block_lanes.py: float32 sums of each row's first end[0] elements."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, shape_seen


def whole_or_three_quarters(name: str, axis: int):
    """A [1] int tensor holding shape_of(name)[axis] where 128 divides it (so every lane block
    divides the bound), else three quarters of it (a partial last tile for every block, the
    reference's too), `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "bound")
        n = bound[axis]
        return np.full(shape, n if n % 128 == 0 else 3 * n // 4).astype(dtype)

    return generate


def ref_bounded_block_lanes(x, end):
    return (f64(x)[:, : int(end[0])].sum(axis=1).astype(np.float32),)


SPEC = SampleSpec(
    name="bounded_block_lanes",
    kernel="bounded_block_lanes",
    eager_reference=True,
    # the registered block_n (lanes), then tile_m
    configs={"b128x8": (128, 8), "b256x16": (256, 16)},
    reference=ref_bounded_block_lanes,
    inputs={"x": remember_shape("x"), "end": whole_or_three_quarters("x", 1)},
    extra_shapes=("x=9x130:f32,end=1:i32", "x=3x7:bf16,end=1:i32"),
    tolerance=SUM_TOLERANCE,
    # bounds read from a tensor: no grid
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((0, "x", 1),),
    notes="test_loops' data_dependent_bounds1: a registered block over `end[0]` lanes",
)
