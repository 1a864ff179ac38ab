"""Expectations of samples/angle_units.py: torch.deg2rad and Tensor.rad2deg (ops table rows)."""

from __future__ import annotations

import numpy as np

from e2e_support import BFLOAT16, f64, torch_promote
from expectations import SampleSpec


def ref_angle_units(degrees, radians):
    value = np.sin(np.deg2rad(f64(degrees))) + np.rad2deg(f64(radians))
    return (value.astype(torch_promote(degrees.dtype, radians.dtype)),)


SPEC = SampleSpec(
    name="angle_units",
    kernel="angle_units",
    configs={"b8x128": (8, 128), "b64x256": (64, 256)},
    reference=ref_angle_units,
    extra_shapes=("degrees=7x5:f32,radians=7x5:f32", "degrees=20x130:f32,radians=20x130:f32"),
    # bf16: the inputs and the result round to 8 bits
    tolerance={BFLOAT16: (3e-2, 3e-2)},
)
