"""A kernel that returns a value and also updates a parameter in place: ``row_sums`` returns
the rows' sums and adds them into ``running``. The generated function returns
``(sums, running)``: the kernel's results, then the updated parameters it does not return
already (helionc warns, ``-Win-place-result``, since the caller's code must change)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_sums(x: torch.Tensor, running: torch.Tensor) -> torch.Tensor:
    """Sums of the rows of ``x`` [m, n] (float32), also added into ``running`` [m]."""
    m, n = x.size()
    sums = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        s = x[tile_m, :].to(torch.float32).sum(-1)
        sums[tile_m] = s
        running[tile_m] = running[tile_m] + s
    return sums


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    running = torch.randn([m], device="cuda")
    expected = running + x.sum(-1)
    torch.testing.assert_close(row_sums(x, running), x.sum(-1))
    torch.testing.assert_close(running, expected)


if __name__ == "__main__":
    check(1024, 1024)
