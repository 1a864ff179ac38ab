"""Expectations of samples/bin_totals.py: totals[ids[i]] += weights[i], counts[ids[i]] += 1, in
place, repeats add.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SUM_TOLERANCE, SampleSpec, indices_below, remember_shape


def ref_bin_totals(weights, ids, totals, counts):
    t = f64(totals).copy()
    np.add.at(t, ids.astype(np.int64), f64(weights))
    c = counts.astype(np.int64).copy()
    np.add.at(c, ids.astype(np.int64), 1)
    return (t.astype(totals.dtype), c.astype(counts.dtype))


SPEC = SampleSpec(
    name="bin_totals",
    kernel="bin_totals",
    configs={"b128": (128,), "b256": (256,)},
    reference=ref_bin_totals,
    inputs={"totals": remember_shape("totals"), "ids": indices_below("totals", 0)},
    extra_shapes=("weights=1:f32,totals=1:f32,ids=1:i32,counts=1:i32",
                  "weights=200:f32,totals=3:f32,ids=200:i32,counts=3:i32"),
    simulator_call="weights=1000:f32,totals=37:f32,ids=1000:i32,counts=37:i32",
    tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 2e-1)},
    notes="1-D scatter-adds, float (one-hot matmul) and int32 of a number (select-sum)",
)
