"""Join whole rows: ``torch.cat`` of two tensors' rows and ``F.pad`` of a row by 128 lanes.

A joined axis made of whole tensor axes and numbers has the sum of their sizes
(``x.size(1) + y.size(1)``, ``x.size(1) + 128``), and a pad width may be a size too
(``y.size(1)``, the parameter ``spare``, which the module checks is not negative): a size computed from other sizes, a number once JAX traces the module, which the
module checks there against the arrays the results are stored into (allocated with the same sums,
or, for ``framed``, another spelling of its sum).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def wide_joins(
    x: torch.Tensor, y: torch.Tensor, fill: float = 0.0, spare: int = 0
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``joined``: each row of x then y's; ``padded``: x's row, then 128 `fill` lanes (float32);
    ``framed``: the joined row between 1 + `spare` lanes (-inf, then zeros) and y.size(1) zero
    lanes."""
    m = x.size(0)
    joined = torch.empty([m, x.size(1) + y.size(1)], dtype=x.dtype, device=x.device)
    padded = torch.empty([m, x.size(1) + 128], dtype=torch.float32, device=x.device)
    framed = torch.empty(
        [m, x.size(1) + 2 * y.size(1) + 1 + spare], dtype=x.dtype, device=x.device
    )
    for rows in hl.tile(m):
        both = torch.cat((x[rows, :], y[rows, :]), dim=1)
        joined[rows, :] = both
        padded[rows, :] = torch.nn.functional.pad(
            x[rows, :].to(torch.float32), (0, 128), value=fill
        )
        low = torch.nn.functional.pad(both, (1, 0), value=float("-inf"))
        framed[rows, :] = torch.nn.functional.pad(low, (spare, y.size(1)))
    return joined, padded, framed


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    y = torch.randn(64, 128, device="cuda")
    joined, padded, framed = wide_joins(x, y)
    both = torch.cat((x, y), dim=1)
    torch.testing.assert_close(joined, both)
    torch.testing.assert_close(padded, torch.nn.functional.pad(x, (0, 128)))
    low = torch.nn.functional.pad(both, (1, 0), value=float("-inf"))
    torch.testing.assert_close(framed, torch.nn.functional.pad(low, (0, 128)))


if __name__ == "__main__":
    main()
