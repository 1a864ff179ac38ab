"""Expectations of samples/scatter_add_rows.py: every row of values added into table's row ids[i],
in place; repeated ids all add.
"""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64
from expectations import SUM_TOLERANCE, SampleSpec, indices_below, remember_shape


def ref_scatter_add_rows(table, values, ids):
    out = f64(table).copy()
    np.add.at(out, ids.astype(np.int64), f64(values))
    return (out.astype(table.dtype),)


SPEC = SampleSpec(
    name="scatter_add_rows",
    kernel="scatter_add_rows",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_scatter_add_rows,
    inputs={"table": remember_shape("table"), "ids": indices_below("table", 0)},
    extra_shapes=("table=1x1:f32,values=1x1:f32,ids=1:i32",
                  "table=3x5:f32,values=20x5:f32,ids=20:i32",
                  "table=4x9:bf16,values=11x9:bf16,ids=11:i32"),
    simulator_call="table=16x256:f32,values=100x256:f32,ids=100:i32",
    # Sums of up to ~40 values per row, rounded once per block in bfloat16.
    tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
    notes="hl.atomic_add through a tile of indices with repeats: a one-hot scatter-add",
)
