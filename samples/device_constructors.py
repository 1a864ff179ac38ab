"""PyTorch's constructors inside a tile loop: ``torch.zeros``, ``torch.ones`` and ``torch.full``
make tiles there, as ``hl.zeros``/``hl.full`` do (``device=`` is the kernel's own device).

An accumulator over a static range, and a local with a type annotation, which Python does not
evaluate.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def device_constructors(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``3 * x + y`` computed as ``(x + 2x + 3x) * 0.5 + 1 * y``, in float32."""
    rows, cols = x.size()
    out = torch.empty([rows, cols], dtype=torch.float32, device=x.device)
    half: float = 0.5
    for tile_r, tile_c in hl.tile([rows, cols]):
        acc = torch.zeros([tile_r, tile_c], dtype=torch.float32, device=x.device)
        for step in hl.static_range(3):
            acc += x[tile_r, tile_c].to(torch.float32) * (step + 1)
        ones = torch.ones(tile_r, tile_c, device=x.device)
        scale = torch.full([tile_r, 1], half, dtype=torch.float32, device=x.device)
        out[tile_r, tile_c] = acc * scale + ones * y[tile_r, tile_c]
    return out


def main() -> None:
    x = torch.randn(256, 512, device="cuda")
    y = torch.randn(256, 512, device="cuda")
    torch.testing.assert_close(device_constructors(x, y), 3 * x + y)


if __name__ == "__main__":
    main()
