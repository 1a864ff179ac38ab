"""Expectations of samples/last_step_zero.py: exp(x) - 1 except at the last step, which is 0.5."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def ref_last_step_zero(x):
    out = np.exp(f64(x)) - 1
    out[:, -1, :] = 0.5
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="last_step_zero",
    kernel="last_step_zero",
    configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
    reference=ref_last_step_zero,
    extra_shapes=("x=1x2x1:f32", "x=2x3x5:bf16", "x=2x3x300:f32"),
    loop_types=(("unroll",), ("grid",)),
    refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
    inner_dims=((2, "x", 2),),
    notes="a host store into the launch's output where its loop does not reach",
    # the simulator's lowering of an aliased output needs dividing blocks
    simulator_call="x=2x16x256:f32",
)
