"""Expectations of samples/scatter_back.py: 2x + 1 (gathered by perm, scattered back), the first row
-1, the last row's first element 10 more.
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec, distinct_indices_below, remember_shape


def ref_scatter_back(x, perm):
    out = 2 * f64(x) + 1
    out[0, :] = -1.0
    out[-1, 0] += 10.0
    return (out.astype(x.dtype),)


SPEC = SampleSpec(
    name="scatter_back",
    kernel="scatter_back",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_scatter_back,
    inputs={"x": remember_shape("x"), "perm": distinct_indices_below("x", 0)},
    extra_shapes=("x=1x1:f32,perm=1:i32", "x=9x3:bf16,perm=9:i32"),
    notes="a host-code scatter, row store and element update after the launch",
)
