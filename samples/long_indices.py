"""``torch.int64`` where Helion kernels use it for indices: an int64 output of row argmaxes
and int64 counters for ``hl.rand`` (``tile.index.to(torch.int64)``). helionc takes int64 as
int32 with a warning (TPUs have no 64-bit integers; JAX without x64 does the same), so the
indices come back as int32 and the counters are the same numbers."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def long_indices(x: torch.Tensor, seed: int = 7) -> tuple[torch.Tensor, torch.Tensor]:
    """(the first position of each row's largest value, a uniform draw per row at counter
    2 * row + 1)."""
    m, n = x.size()
    first = torch.empty([m], dtype=torch.int64, device=x.device)
    jitter = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        first[tile_m] = torch.argmax(x[tile_m, :], dim=1)
        rows = tile_m.index.to(torch.int64)
        jitter[tile_m] = hl.rand([tile_m], seed=seed, offsets=rows * 2 + 1)
    return first, jitter


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    first, jitter = long_indices(x)
    torch.testing.assert_close(first, x.argmax(1))
    assert float(jitter.min()) >= 0.0 and float(jitter.max()) <= 1.0


if __name__ == "__main__":
    check(1000, 300)
