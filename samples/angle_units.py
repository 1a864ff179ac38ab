"""Angles between degrees and radians: ``sin(deg2rad(degrees)) + rad2deg(radians)``."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def angle_units(degrees: torch.Tensor, radians: torch.Tensor) -> torch.Tensor:
    """The sine of an angle given in degrees plus another angle converted to degrees."""
    m, n = degrees.size()
    out = torch.empty_like(degrees)
    for tile_m, tile_n in hl.tile([m, n]):
        angle = torch.deg2rad(degrees[tile_m, tile_n])
        out[tile_m, tile_n] = torch.sin(angle) + radians[tile_m, tile_n].rad2deg()
    return out


def check(m: int = 1024, n: int = 1024) -> None:
    degrees = torch.randn(m, n, device="cuda", dtype=torch.float32) * 180
    radians = torch.randn(m, n, device="cuda", dtype=torch.float32)
    expected = torch.sin(torch.deg2rad(degrees)) + torch.rad2deg(radians)
    torch.testing.assert_close(angle_units(degrees, radians), expected, rtol=1e-5, atol=1e-4)


if __name__ == "__main__":
    check()
