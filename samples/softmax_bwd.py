"""Softmax backward (Helion's examples/softmax.py, ``softmax_bwd``): two inner loops over column
tiles, the first summing ``y * dy`` per row, the second writing ``y * (dy - sum)``."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def softmax_bwd(grad_output: torch.Tensor, softmax_output: torch.Tensor) -> torch.Tensor:
    """dx = y * (dy - sum(y * dy, dim=1)) for the softmax output y and its gradient dy, [m, n]."""
    m, n = grad_output.size()
    grad_input = torch.empty_like(grad_output)

    for tile_m in hl.tile(m):
        sum_per_row = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            sum_per_row += torch.sum(softmax_output[tile_m, tile_n] * grad_output[tile_m, tile_n], dim=1)
        for tile_n in hl.tile(n):
            grad_input[tile_m, tile_n] = softmax_output[tile_m, tile_n] * (
                grad_output[tile_m, tile_n] - sum_per_row[:, None]
            )

    return grad_input


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda", dtype=torch.float32, requires_grad=True)
    y = torch.nn.functional.softmax(x, dim=1)
    dy = torch.randn_like(y)
    (dx,) = torch.autograd.grad(y, x, dy)
    torch.testing.assert_close(softmax_bwd(dy, y.detach()), dx)


if __name__ == "__main__":
    check(1024, 1024)
