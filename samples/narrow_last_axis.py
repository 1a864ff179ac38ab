"""Values narrower than 32 bits given a new last axis, in the spellings a kernel may use:
``torch.stack(..., dim=-1)``, ``hl.join``, ``.unsqueeze(-1)`` and ``[:, :, None]``. The new
last axis moves the block's last axis from the lanes into the sublanes, which the Mosaic of TPUs
before v6 (no 16-bit or 8-bit vector units) cannot do for narrow values ("unsupported shape
cast"): the module moves them as 32-bit values there (exact) and as they are on v6 and later."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def narrow_last_axis(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """out[..., 0] = 2 x + 2 y and out[..., 1] = -x / 2 + 2 y, for x and y [m, n]."""
    m, n = x.size()
    out = torch.empty([m, n, 2], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        a = x[tile_m, tile_n]
        b = y[tile_m, tile_n]
        signs = torch.stack([a, -a], dim=-1)
        halves = hl.join(a, a * 0.5)
        shift = b.unsqueeze(-1) + b[:, :, None]
        out[tile_m, tile_n, :] = signs + halves + shift
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda", dtype=torch.bfloat16)
    y = torch.randn([m, n], device="cuda", dtype=torch.bfloat16)
    want = torch.stack([2 * x + 2 * y, -0.5 * x + 2 * y], dim=-1)
    torch.testing.assert_close(narrow_last_axis(x, y), want)


if __name__ == "__main__":
    check(64, 256)
