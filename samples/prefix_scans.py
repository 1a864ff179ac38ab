"""Scans along the rows of ``x`` with combine functions: running sums both ways
(``torch.cumsum``, ``hl.cumsum(reverse=True)``), a running product (``hl.cumprod``), a running
maximum with a module-level combine function (``hl.associative_scan``) and a running range
(largest minus smallest so far) from a two-value scan with a lambda."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


def larger(a, b):
    """The larger of two running values."""
    return torch.maximum(a, b)


@helion.kernel(static_shapes=True)
def prefix_scans(
    x: torch.Tensor,
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    m, n = x.size()
    forward = torch.empty_like(x)
    backward = torch.empty_like(x)
    product = torch.empty_like(x)
    peak = torch.empty_like(x)
    spread = torch.empty_like(x)
    for tile_m in hl.tile(m):
        row = x[tile_m, :].to(torch.float32)
        forward[tile_m, :] = torch.cumsum(row, dim=1)
        backward[tile_m, :] = hl.cumsum(row, dim=1, reverse=True)
        product[tile_m, :] = hl.cumprod(1.0 + 0.01 * row, dim=-1)
        peak[tile_m, :] = hl.associative_scan(larger, row, dim=1)
        high, low = hl.associative_scan(
            lambda hi_a, lo_a, hi_b, lo_b: (torch.maximum(hi_a, hi_b), torch.minimum(lo_a, lo_b)),
            (row, row),
            dim=1,
        )
        spread[tile_m, :] = high - low
    return forward, backward, product, peak, spread


def check(m: int, n: int) -> None:
    x = torch.randn([m, n], device="cuda")
    forward, backward, product, peak, spread = prefix_scans(x)
    torch.testing.assert_close(forward, torch.cumsum(x, 1))
    torch.testing.assert_close(backward, torch.cumsum(x.flip(1), 1).flip(1))
    torch.testing.assert_close(product, torch.cumprod(1.0 + 0.01 * x, 1))
    torch.testing.assert_close(peak, torch.cummax(x, 1).values)
    torch.testing.assert_close(spread, torch.cummax(x, 1).values - torch.cummin(x, 1).values)


if __name__ == "__main__":
    check(64, 300)
