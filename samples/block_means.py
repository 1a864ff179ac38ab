"""A registered block size used as a number: ``block_m = hl.register_block_size(m)`` sizes a
host array of one row per block (``helion.cdiv(m, block_m)``), divides each block's column sums
in device code, and scales their total back on the host. The result is the column sums of ``x``
whatever block the config chooses; helionc computes ``block_m`` once (the config's block, made
legal for the TPU) and the loop keeps exactly that block (README, "Registered block sizes as
values")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def block_means(x: torch.Tensor) -> torch.Tensor:
    """The float32 column sums of ``x`` [m, n], from the column means of its blocks of rows."""
    m, n = x.size()
    block_m = hl.register_block_size(m)
    means = torch.empty([helion.cdiv(m, block_m), n], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m, block_size=block_m):
        means[tile_m.id, :] = x[tile_m, :].to(torch.float32).sum(0) / block_m
    return means.sum(0) * block_m


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    torch.testing.assert_close(block_means(x), x.sum(0), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    check(1000, 256)
