"""Row scatters from an inner loop (as examples/moe_matmul_ogs.py stores each expert's tokens):
`out[rows, tile_n] = ...` at rows gathered through `ids`, inside an `hl.grid` over groups, so
the kernel keeps `out` whole in VMEM and each step of the inner loop scatters into the columns
of its `tile_n`; `.squeeze(0)` of the tile's indices is a no-op, as in PyTorch."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def group_scatter(x: torch.Tensor, ids: torch.Tensor, per: int = 4) -> torch.Tensor:
    """Group g's rows ``ids[g * per : (g + 1) * per]`` (distinct) of ``x`` [m, n] times g + 1,
    the other rows 0."""
    m, n = x.size()
    groups = ids.size(0) // per
    out = torch.zeros_like(x)
    for g in hl.grid(groups):
        for tile_r, tile_n in hl.tile([per, n]):
            rows = ids[(g * per + tile_r.index).squeeze(0)]
            out[rows, tile_n] = x[rows, tile_n] * (g + 1)
    return out


def check(m: int, n: int, per: int) -> None:
    x = torch.randn([m, n], device="cuda")
    ids = torch.randperm(m, device="cuda", dtype=torch.int32)
    expected = torch.zeros_like(x)
    for g in range(m // per):
        rows = ids[g * per : (g + 1) * per].long()
        expected[rows] = x[rows] * (g + 1)
    torch.testing.assert_close(group_scatter(x, ids, per), expected)


if __name__ == "__main__":
    check(24, 300, 4)
