"""Project one activation matrix through a stack of per-head weights: out[h] = x @ w[h].

``hl.dot`` of a 2-D tile and a 3-D (batched) tile broadcasts the 2-D side over the batch, as
``torch.matmul`` does; the inner loop runs over the contracted axis k.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def head_projection(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """``x`` is [m, k], ``w`` is [heads, k, d]; the result is [heads, m, d] in x's dtype."""
    m, k = x.size()
    heads, _, d = w.size()
    out = torch.empty([heads, m, d], dtype=x.dtype, device=x.device)
    for tile_h, tile_m, tile_d in hl.tile([heads, m, d]):
        acc = hl.zeros([tile_h, tile_m, tile_d], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = hl.dot(x[tile_m, tile_k], w[tile_h, tile_k, tile_d], acc=acc)
        out[tile_h, tile_m, tile_d] = acc.to(x.dtype)
    return out


def main() -> None:
    x = torch.randn(256, 512, device="cuda", dtype=torch.bfloat16)
    w = torch.randn(4, 512, 128, device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(head_projection(x, w), torch.matmul(x, w), rtol=2e-2, atol=2e-1)


if __name__ == "__main__":
    main()
