"""Expectations of samples/row_scatter.py: table's rows `ids` (distinct) replaced by twice values',
in place.
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec, distinct_indices_below, remember_shape


def ref_row_scatter(table, values, ids):
    out = f64(table).copy()
    out[ids] = 2 * f64(values)
    return (out.astype(table.dtype),)


SPEC = SampleSpec(
    name="row_scatter",
    kernel="row_scatter",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_row_scatter,
    inputs={"table": remember_shape("table"), "ids": distinct_indices_below("table", 0)},
    extra_shapes=("table=1x1:f32,values=1x1:f32,ids=1:i32",
                  "table=20x5:bf16,values=9x5:bf16,ids=9:i32"),
    simulator_call="table=64x256:f32,values=16x256:f32,ids=16:i32",
    notes="a scatter of rows through a tile of indices, in place",
)
