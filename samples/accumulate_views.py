"""In-place updates of two parameters, one of them through a view: ``total`` is written
through ``total.view(-1)`` and ``count`` directly, and the kernel returns nothing. The
generated function returns ``(total, count)``, the updated parameters in parameter order, with
``total`` in its own shape (the view's values written back)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def accumulate(total: torch.Tensor, x: torch.Tensor, count: torch.Tensor) -> None:
    """``total += x`` (any shape, read flat) and ``count += 1`` (1-D, total's element count)."""
    flat = total.view(-1)
    xs = x.view(-1)
    for tile in hl.tile(flat.size(0)):
        flat[tile] = flat[tile] + xs[tile]
        count[tile] = count[tile] + 1


def check(m: int, n: int) -> None:
    total = torch.randn([m, n], device="cuda")
    x = torch.randn([m, n], device="cuda")
    count = torch.zeros([m * n], device="cuda", dtype=torch.int32)
    expected = total + x
    accumulate(total, x, count)
    torch.testing.assert_close(total, expected)
    assert bool((count == 1).all())


if __name__ == "__main__":
    check(512, 512)
