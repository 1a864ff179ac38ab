"""Expectations of samples/grid_elements.py: out starts at one; each step adds 2 * x[i] + y[n - 1 -
i] to out[i].
"""

from __future__ import annotations

from e2e_support import f64, torch_promote
from expectations import SampleSpec


def ref_grid_elements(x, y):
    dtype = torch_promote(x.dtype, y.dtype)
    return ((1 + 2 * f64(x) + f64(y)[::-1]).astype(dtype),)


SPEC = SampleSpec(
    name="grid_elements",
    kernel="grid_elements",
    configs={"none": ()},
    reference=ref_grid_elements,
    extra_shapes=("x=1:f32,y=1:f32", "x=129:f32,y=129:f32"),
    notes="one element per hl.grid step: the whole axis resident, a lane select per store",
)
