"""Expectations of samples/device_branches.py: scaled by flags[0] > 0 (2x, else x / 2 - 1); out + x
where flags[1] >= limit, else out unchanged; picked row i by i % 3 (x, -x, 3x).
"""

from __future__ import annotations

import itertools

import numpy as np

from e2e_support import f64
from expectations import SampleSpec


def alternating_flags(high: int = 4):
    """Int flags in [0, high), the first 1 and 0 in turn from one generated call to the next
    (both branches of an `if` on it run across the calls)."""
    calls = itertools.count()

    def generate(rng, shape, dtype):
        flags = rng.integers(0, high, size=shape)
        flags[0] = (next(calls) + 1) % 2
        return flags.astype(dtype)

    return generate


def ref_device_branches(x, flags, out, limit=2):
    v = f64(x)
    scaled = v * 2.0 if flags[0] > 0 else v * 0.5 - 1.0
    updated = f64(out) + v if flags[1] >= limit else f64(out)
    factor = np.array([1.0, -1.0, 3.0])[np.arange(v.shape[0]) % 3]
    return (scaled.astype(x.dtype), updated.astype(out.dtype), (v * factor[:, None]).astype(x.dtype))


SPEC = SampleSpec(
    name="device_branches",
    kernel="device_branches",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_device_branches,
    scalars=({}, {"limit": 0}, {"limit": 5}),
    inputs={"flags": alternating_flags()},
    extra_shapes=("x=1x1:f32,flags=2:i32,out=1x1:f32", "x=9x129:bf16,flags=2:i32,out=9x129:bf16"),
    returns_tuple=True,
    notes="`if`/`elif`/`else` on device scalars with stores in the branches (pl.when)",
    # `out` comes in aliased (a store under a device `if` may not run)
    simulator_call="x=64x256:f32,flags=2:i32,out=64x256:f32",
)
