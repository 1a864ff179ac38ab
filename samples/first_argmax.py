"""Custom reductions along the rows of ``x`` with ``hl.reduce``: the label of each row's first
largest value (a two-value combine over (value, label) pairs that keeps the earlier one on
ties, in its tuple-parameter form), a sum of squares (``keep_dims=True``) and a product
with ``other=1.0``."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


def keep_first_larger(left, right):
    """(value, position) of the larger value; the left (earlier) one when they tie."""
    left_value, left_position = left
    right_value, right_position = right
    take_right = right_value > left_value
    return (
        torch.where(take_right, right_value, left_value),
        torch.where(take_right, right_position, left_position),
    )


def add(a, b):
    return a + b


@helion.kernel(static_shapes=True)
def first_argmax(
    x: torch.Tensor, labels: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    m, n = x.size()
    best = torch.empty([m], dtype=x.dtype, device=x.device)
    where = torch.empty([m], dtype=torch.int32, device=x.device)
    squares = torch.empty([m, 1], dtype=torch.float32, device=x.device)
    product = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        row = x[tile_m, :]
        value, position = hl.reduce(keep_first_larger, (row, labels[tile_m, :]), dim=1)
        best[tile_m] = value
        where[tile_m] = position
        wide = row.to(torch.float32)
        squares[tile_m, :] = hl.reduce(add, wide * wide, dim=1, keep_dims=True)
        product[tile_m] = hl.reduce(lambda a, b: a * b, 1.0 + 0.01 * wide, dim=1, other=1.0)
    return best, where, squares, product


def check(m: int, n: int) -> None:
    x = torch.randint(0, 8, [m, n], device="cuda").float()
    labels = torch.randint(-50, 50, [m, n], dtype=torch.int32, device="cuda")
    best, where, squares, product = first_argmax(x, labels)
    torch.testing.assert_close(best, x.amax(1))
    torch.testing.assert_close(where, labels.gather(1, x.argmax(1, keepdim=True))[:, 0])
    torch.testing.assert_close(squares, (x * x).sum(1, keepdim=True))
    torch.testing.assert_close(product, (1.0 + 0.01 * x).prod(1))


if __name__ == "__main__":
    check(64, 300)
