"""Expectations of samples/callable_mm.py: callable parameters passed at run time. The callables are
arguments of the kernel (SampleSpec.scalars), so they are JAX code; the reference knows each by
identity.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np

from e2e_support import f64
from expectations import ALL_STRATEGIES, PRODUCT_TOLERANCE, SampleSpec


def mm_add(acc, a, b):
    """test_dot's mm_func: acc + a @ b in float32."""
    return acc + jnp.dot(a, b, preferred_element_type=jnp.float32)


def mm_add_scaled(acc, a, b):
    """A second mm_func: acc + 0.5 * (a @ b)."""
    return acc + 0.5 * jnp.dot(a, b, preferred_element_type=jnp.float32)


def tail_column_index(acc, tiles):
    """Adds each element's column index (the column tile's `index`)."""
    return acc + tiles[1].index[None, :]


def ref_callable_mm(x, y, mm_func, tail):
    scale = {mm_add: 1.0, mm_add_scaled: 0.5}[mm_func]
    assert tail is tail_column_index
    n = y.shape[1]
    return ((2.0 * (scale * (f64(x) @ f64(y)) + np.arange(n)[None, :])).astype(np.float32),)


SPEC = SampleSpec(
    name="callable_mm",
    kernel="callable_mm",
    configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
    reference=ref_callable_mm,
    scalars=(
        {"mm_func": mm_add, "tail": tail_column_index},
        {"mm_func": mm_add_scaled, "tail": tail_column_index},
    ),
    extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
    tolerance=PRODUCT_TOLERANCE,
    loop_types=ALL_STRATEGIES,
    inner_dims=((2, "x", 1),),
    notes="test_dot's mm_func: callables called in the kernel, tile values masked to zeros",
)
