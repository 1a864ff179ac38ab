"""The `k` largest of each row, `k` a parameter: ``torch.topk`` with a host int for `k`.

`k` is ``hl.specialize``d, so it is a number while JAX traces the module: the result's last
dimension is that number (a size computed from other sizes), checked then against the arrays
it is stored into, and against the row (`k` at most its length). Positions are int32.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_topk(x: torch.Tensor, k: int = 8) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The `k` largest values of each row and their positions, and its `n // 2` smallest."""
    m, n = x.size()
    k = hl.specialize(k)
    top = torch.empty([m, k], dtype=x.dtype, device=x.device)
    top_at = torch.empty([m, k], dtype=torch.int32, device=x.device)
    low = torch.empty([m, n // 2], dtype=x.dtype, device=x.device)
    for rows in hl.tile(m):
        values, where = torch.topk(x[rows, :], k, dim=-1)
        top[rows, :] = values
        top_at[rows, :] = where.to(torch.int32)
        smallest, _ = x[rows, :].topk(n // 2, largest=False)
        low[rows, :] = smallest
    return top, top_at, low


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    top, top_at, low = row_topk(x, 8)
    expected = torch.topk(x, 8)
    torch.testing.assert_close(top, expected.values)
    torch.testing.assert_close(top_at, expected.indices.to(torch.int32))
    torch.testing.assert_close(low, torch.topk(x, 128, largest=False).values)


if __name__ == "__main__":
    main()
