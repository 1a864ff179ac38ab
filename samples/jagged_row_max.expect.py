"""Expectations of samples/jagged_row_max.py: the largest of the first lengths[b] elements of row b,
0 when empty.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, lengths_below, remember_shape


def negative(rng, shape, dtype):
    """Values in [-9, -1): a masked-out 0 would beat every one of them (jagged_row_max)."""
    return rng.uniform(-9.0, -1.0, size=shape).astype(np.float32).astype(dtype)


def ref_jagged_row_max(x, lengths):
    return (np.array([f64(x)[i, :n].max() if n else 0.0 for i, n in enumerate(lengths)])
            .astype(np.float32),)


SPEC = SampleSpec(
    name="jagged_row_max",
    kernel="jagged_row_max",
    eager_reference=True,
    configs={"b8k128": (8, 128), "b16k256": (16, 256)},
    reference=ref_jagged_row_max,
    inputs={"x": remember_shape("x", negative), "lengths": lengths_below("x", 1)},
    extra_shapes=("x=3x5:f32,lengths=3:i32",),
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((1, "x", 1),),
    notes="a max along hl.jagged_tile: the elements past a row's end never win",
)
