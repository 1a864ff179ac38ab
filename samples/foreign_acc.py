"""A product accumulated into a tile sized by another tensor's axis, plus that tensor.

Exercises `hl.dot(..., acc=acc)` where `acc` is `hl.zeros([tile_m, c.size(1)])` and the product
is `[tile_m, b.size(1)]`: two axes of different tensors that the kernel's shapes make equal
(Helion's attention backward sizes its accumulators so). The module checks at trace time that
`b.size(1)` is `c.size(1)`.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def foreign_acc(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> torch.Tensor:
    m, k = a.size()
    out = torch.empty([m, c.size(1)], dtype=torch.float32, device=a.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, c.size(1)], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = hl.dot(a[tile_m, tile_k], b[tile_k, :], acc=acc)
        out[tile_m, :] = acc + c[tile_m, :]
    return out


def check() -> None:
    a = torch.randn(256, 512, device="cuda")
    b = torch.randn(512, 128, device="cuda")
    c = torch.randn(256, 128, device="cuda")
    torch.testing.assert_close(foreign_acc(a, b, c), a @ b + c, rtol=1e-3, atol=1e-3)


if __name__ == "__main__":
    check()
