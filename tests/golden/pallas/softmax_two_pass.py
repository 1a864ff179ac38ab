"""Softmax over the last axis in two passes over column tiles (Helion's examples/softmax.py,
``softmax_two_pass``): the first inner loop keeps a running maximum and a running sum of
exponentials (rescaled when the maximum grows), the second normalises and stores each tile.
Rows never need to fit in VMEM whole."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def softmax_two_pass(x: torch.Tensor) -> torch.Tensor:
    """Softmax of a 2-D tensor along dim 1, in x's dtype."""
    m, n = x.size()
    out = torch.empty_like(x)
    block_size_m = hl.register_block_size(m)
    block_size_n = hl.register_block_size(n)
    for tile_m in hl.tile(m, block_size=block_size_m):
        mi = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        di = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n, block_size=block_size_n):
            values = x[tile_m, tile_n]
            local_amax = torch.amax(values, dim=1)
            mi_next = torch.maximum(mi, local_amax)
            di = di * torch.exp(mi - mi_next) + torch.exp(values - mi_next[:, None]).sum(dim=1)
            mi = mi_next
        for tile_n in hl.tile(n, block_size=block_size_n):
            values = x[tile_m, tile_n]
            out[tile_m, tile_n] = torch.exp(values - mi[:, None]) / di[:, None]
    return out


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda", dtype=torch.float16)
    torch.testing.assert_close(softmax_two_pass(x), torch.nn.functional.softmax(x, dim=1))


if __name__ == "__main__":
    check(1024, 1024)
