"""Expectations of samples/item_sized_rows.py: twice the first offsets[-1] rows of x."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, remember_shape, shape_seen


def offsets_within(name: str, axis: int):
    """Sorted int offsets from 0 to a last one in [shape_of(name)[axis] // 2,
    shape_of(name)[axis]], `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "offsets")
        last = int(rng.integers(bound[axis] // 2, bound[axis] + 1))
        cuts = sorted(int(c) for c in rng.integers(0, last + 1, size=shape[0] - 2))
        return np.array([0] + cuts + [last]).astype(dtype)

    return generate


def ref_item_sized_rows(x, offsets):
    return ((2 * f64(x)[: int(offsets[-1])]).astype(x.dtype),)


SPEC = SampleSpec(
    name="item_sized_rows",
    kernel="item_sized_rows",
    eager_reference=True,
    host_values=True,
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_item_sized_rows,
    inputs={"x": remember_shape("x"), "offsets": offsets_within("x", 0)},
    extra_shapes=("x=9x130:f32,offsets=3:i32", "x=3x7:bf16,offsets=2:i32"),
    notes="an output sized by `.item()`: a concrete host value, refused under jax.jit",
)
