"""Order each row: ``torch.sort``, ``torch.argsort`` and ``torch.topk`` along the lane axis.

The rows are read whole (``x[rows, :]``): an ordering needs every element of the axis. Mosaic
has no sort primitive, so the module ranks each element by compares with the others of its row
and places it by its rank (work that grows with the square of the row length; rows of at most
1024 elements). Positions are int32; NaN counts as the largest and equal values keep their
order.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_sorts(
    x: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """Each row in descending order, the positions of its ascending order, and its 4 smallest
    values with their positions."""
    m, n = x.size()
    down = torch.empty_like(x)
    order = torch.empty([m, n], dtype=torch.int32, device=x.device)
    low = torch.empty([m, 4], dtype=x.dtype, device=x.device)
    low_at = torch.empty([m, 4], dtype=torch.int32, device=x.device)
    for rows in hl.tile(m):
        row = x[rows, :]
        values, _ = torch.sort(row, dim=-1, descending=True)
        down[rows, :] = values
        order[rows, :] = torch.argsort(row, dim=1).to(torch.int32)
        smallest, where = row.topk(4, largest=False)
        low[rows, :] = smallest
        low_at[rows, :] = where.to(torch.int32)
    return down, order, low, low_at


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    down, order, low, low_at = row_sorts(x)
    torch.testing.assert_close(down, torch.sort(x, dim=-1, descending=True).values)
    torch.testing.assert_close(order, torch.argsort(x, dim=1, stable=True).to(torch.int32))
    smallest = torch.topk(x, 4, largest=False)
    torch.testing.assert_close(low, smallest.values)
    torch.testing.assert_close(low_at, smallest.indices.to(torch.int32))


if __name__ == "__main__":
    main()
