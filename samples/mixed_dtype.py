"""GEGLU gate in mixed precision: bf16 in, float32 math, bf16 out.

Each tile is widened to float32 with ``.to(torch.float32)``, the exact (erf) GELU of ``x`` gates
``y``, and the product is narrowed back with ``.to(torch.bfloat16)`` when it is stored.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True, autotune_effort="none")
def geglu(x: torch.Tensor, y: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
    """``scale * gelu(x) * y`` computed in float32, returned in bfloat16."""
    m = x.size(0)
    n = x.shape[1]
    out = torch.empty((m, n), dtype=torch.bfloat16, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        xf = x[tile_m, tile_n].to(torch.float32)
        yf = y[tile_m, tile_n].to(torch.float32)
        # 0.7071067811865476 = 1 / sqrt(2)
        gelu = 0.5 * xf * (1.0 + torch.erf(xf * 0.7071067811865476))
        out[tile_m, tile_n] = (scale * gelu * yf).to(torch.bfloat16)
    return out


def check() -> None:
    x = torch.randn(4096, 2048, device="cuda", dtype=torch.bfloat16)
    y = torch.randn(4096, 2048, device="cuda", dtype=torch.bfloat16)
    expected = (torch.nn.functional.gelu(x.float()) * y.float()).bfloat16()
    torch.testing.assert_close(geglu(x, y), expected, rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    check()
