"""Split-K matrix multiplication: the K axis is cut into slices that the outer loop visits as
steps of its own; each step multiplies its slice and adds the partial product into the output
with ``hl.atomic_add``. On a TPU the steps of one output block run one after the other, so the
atomic is a plain read-modify-write: helionc runs the K slices innermost (``"arbitrary"``) and
keeps the output block in VMEM across them (README, "Atomic updates")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def split_k_matmul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x @ y`` in float32, accumulated over slices of K."""
    m, k = x.size()
    k2, n = y.size()
    assert k == k2, f"inner dimensions differ: {k} and {k2}"
    out = torch.zeros([m, n], dtype=torch.float32, device=x.device)
    k_slice = hl.register_block_size(128, 4096)
    for tile_m, tile_n, k_part in hl.tile([m, n, k], block_size=[None, None, k_slice]):
        partial = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k_part.begin, k_part.end):
            partial = torch.addmm(partial, x[tile_m, tile_k], y[tile_k, tile_n])
        hl.atomic_add(out, [tile_m, tile_n], partial)
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.bfloat16)
    y = torch.randn([k, n], device="cuda", dtype=torch.bfloat16)
    torch.testing.assert_close(split_k_matmul(x, y), x.float() @ y.float(), rtol=1e-2, atol=1e-1)


if __name__ == "__main__":
    check(512, 4096, 512)
