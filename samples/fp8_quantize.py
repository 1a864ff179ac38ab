"""Per-row quantisation to 8-bit floats: ``x * scale`` rounded to ``torch.float8_e4m3fn``, the
OCP E4M3 format (no infinities, largest finite 448) that TPUs store and multiply natively. The
product is taken in float32 and rounded once, as PyTorch's ``.to()`` of a float32 tile does."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def fp8_quantize(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    """``(x * scale[:, None]).to(torch.float8_e4m3fn)`` for x [m, n] and scale [m]."""
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.float8_e4m3fn, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        scaled = x[tile_m, tile_n].to(torch.float32) * scale[tile_m].unsqueeze(1)
        out[tile_m, tile_n] = scaled.to(torch.float8_e4m3fn)
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    scale = torch.rand([m], device="cuda") * 4
    expected = (x * scale[:, None]).to(torch.float8_e4m3fn)
    torch.testing.assert_close(fp8_quantize(x, scale).float(), expected.float())


if __name__ == "__main__":
    check(1024, 512)
