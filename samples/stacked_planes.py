"""Stack tile values along a new axis: three planes in front, two results side by side.

``torch.stack`` of tile values of one shape adds an axis whose size is their count; the
stores put that axis on a whole array axis of the same length (``planes[:, tile_m, tile_n]``),
which the module checks against the array when JAX traces it.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def stacked_planes(
    a: torch.Tensor, b: torch.Tensor, c: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """``planes = stack([a, b, c])`` and ``pairs = stack([a + b, a * c], dim=1)`` in float32."""
    m, n = a.size()
    planes = torch.empty([3, m, n], dtype=a.dtype, device=a.device)
    pairs = torch.empty([m, 2, n], dtype=torch.float32, device=a.device)
    for tile_m, tile_n in hl.tile([m, n]):
        x = a[tile_m, tile_n]
        y = b[tile_m, tile_n]
        z = c[tile_m, tile_n]
        planes[:, tile_m, tile_n] = torch.stack([x, y, z])
        pairs[tile_m, :, tile_n] = torch.stack((x + y, x * z), dim=1).to(torch.float32)
    return planes, pairs


def main() -> None:
    a, b, c = (torch.randn(64, 256, device="cuda") for _ in range(3))
    planes, pairs = stacked_planes(a, b, c)
    torch.testing.assert_close(planes, torch.stack([a, b, c]))
    torch.testing.assert_close(pairs, torch.stack([a + b, a * c], dim=1))


if __name__ == "__main__":
    main()
