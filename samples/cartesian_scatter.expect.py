"""Expectations of samples/cartesian_scatter.py: the positive values at the cartesian product of
rows and cols (distinct) in ones; added at the product of rrows and rcols (repeats add) into acc, in
place.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SUM_TOLERANCE, SampleSpec, remember_shape, shape_seen


def index_into(name: str, axis: int, distinct: bool):
    """Integers in [0, shape_of(name)[axis]), `name` generated earlier in the same call (kept
    for the other index tensors of the call): distinct in random order, or uniform with
    repeats."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "indices", keep=True)[axis]
        if distinct:
            return rng.permutation(bound)[: shape[0]].astype(dtype)
        return rng.integers(0, bound, size=shape).astype(dtype)

    return generate


def ref_cartesian_scatter(acc, values, rows, cols, rrows, rcols):
    out = np.ones(acc.shape)
    v = f64(values)
    out[np.ix_(rows.astype(np.int64), cols.astype(np.int64))] = np.where(v > 0, v, 1.0)
    a = f64(acc).copy()
    np.add.at(a, (rrows.astype(np.int64)[:, None], rcols.astype(np.int64)[None, :]), f64(values))
    return (out.astype(acc.dtype), a.astype(acc.dtype))


SPEC = SampleSpec(
    name="cartesian_scatter",
    kernel="cartesian_scatter",
    configs={"b8x128": (8, 128), "b16x256": (16, 256)},
    reference=ref_cartesian_scatter,
    inputs={"acc": remember_shape("acc"), "rows": index_into("acc", 0, True),
            "cols": index_into("acc", 1, True), "rrows": index_into("acc", 0, False),
            "rcols": index_into("acc", 1, False)},
    extra_shapes=("acc=1x1:f32,values=1x1:f32,rows=1:i32,cols=1:i32,rrows=1:i32,rcols=1:i32",
                  "acc=5x9:f32,values=3x7:f32,rows=3:i32,cols=7:i32,rrows=3:i32,rcols=7:i32"),
    simulator_call="acc=32x256:f32,values=16x256:f32,rows=16:i32,cols=256:i32,rrows=16:i32,rcols=256:i32",
    tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
    returns_tuple=False,
    notes="two tiles of indices, one per axis of a 2-D array: a masked store (reading the old values) and a scatter-add at the cartesian product",
)
