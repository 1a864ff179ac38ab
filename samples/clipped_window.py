"""Keep the elements of a vector whose position lies in [lo, hi), zero the rest.

Each tile clips the window to its own extent with Python's ``max``/``min`` of device scalars
(``max(tile.begin, lo)``, ``min(tile.end, hi)``), which the module computes with
``jnp.maximum``/``jnp.minimum`` because the tile's bounds are only known on the device.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def clipped_window(x: torch.Tensor, lo: int = 100, hi: int = 1000) -> torch.Tensor:
    """``x`` where ``lo <= i < hi``, else 0."""
    (n,) = x.size()
    out = torch.empty_like(x)
    for tile in hl.tile(n):
        first = max(tile.begin, lo)
        last = min(tile.end, hi) - 1
        keep = (tile.index >= first) & (tile.index <= last)
        out[tile] = torch.where(keep, x[tile], 0.0)
    return out


def main() -> None:
    x = torch.randn(4096, device="cuda")
    expected = x.clone()
    expected[:100] = 0
    expected[1000:] = 0
    torch.testing.assert_close(clipped_window(x), expected)


if __name__ == "__main__":
    main()
