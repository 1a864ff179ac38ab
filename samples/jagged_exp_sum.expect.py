"""Expectations of samples/jagged_exp_sum.py: float32 sums of exp over the first lengths[b] rows of
batch b.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SUM_TOLERANCE, SampleSpec, lengths_below, remember_shape


def ref_jagged_exp_sum(x, lengths):
    return (np.stack([np.exp(f64(x)[i, :n]).sum(axis=0) for i, n in enumerate(lengths)])
            .astype(np.float32),)


SPEC = SampleSpec(
    name="jagged_exp_sum",
    kernel="jagged_exp_sum",
    eager_reference=True,
    configs={"b8k8": (8, 8), "b8k16": (8, 16)},
    reference=ref_jagged_exp_sum,
    inputs={"x": remember_shape("x"), "lengths": lengths_below("x", 1)},
    extra_shapes=("x=3x5x7:f32,lengths=3:i32",),
    tolerance=SUM_TOLERANCE,
    loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
    refused_loop_types=(("grid",),),
    inner_dims=((1, "x", 1),),
    notes="hl.jagged_tile over a dense backing array: loads and the sum masked per row",
)
