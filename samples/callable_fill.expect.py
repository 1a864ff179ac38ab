"""Expectations of samples/callable_fill.py: callable parameters passed at run time. The callables
are arguments of the kernel (SampleSpec.scalars), so they are JAX code; the reference knows each by
identity.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def fill_index_difference(tile_m, tile_n, dtype):
    """test_rng's rng_func form: a value of the tiles' shape in `dtype`."""
    return (tile_m.index[:, None] - tile_n.index[None, :]).astype(dtype)


def ref_callable_fill(x, fill):
    assert fill is fill_index_difference
    m, n = x.shape
    out = f64(x) + (np.arange(m)[:, None] - np.arange(n)[None, :])
    out[:1] = 0  # the loop starts at row 1
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="callable_fill",
    kernel="callable_fill",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_callable_fill,
    scalars=({"fill": fill_index_difference},),
    extra_shapes=("x=2x1:f32", "x=9x130:f32"),
    # `out` (zeros, written from row 1) is aliased: the simulator needs dividing blocks
    simulator_call="x=32x256:f32",
    notes="test_rng's rng_func(tile_m, tile_n, dtype): typed by its tiles and dtype; a loop "
    "from row 1",
)
