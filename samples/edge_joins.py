"""Join parts of a row: ``torch.cat`` and ``torch.nn.functional.pad`` of tile values.

A joined axis must be a whole axis or a number in every part (a block is no part of another
tile's block); the result's size is the parts' sum. Here the parts are windows of 4 columns
(``row[:, 0:4]``), so the results have 8 and 9 columns, which the module checks against the
arrays they are stored into when JAX traces it.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def edge_joins(x: torch.Tensor, fill: float = -1.0) -> tuple[torch.Tensor, torch.Tensor]:
    """``swapped``: columns 4..7, then twice columns 0..3; ``padded``: columns 0..3 with two
    `fill` columns before and three -inf columns after."""
    m = x.size(0)
    swapped = torch.empty([m, 8], dtype=x.dtype, device=x.device)
    padded = torch.empty([m, 9], dtype=torch.float32, device=x.device)
    for rows in hl.tile(m):
        row = x[rows, :]
        head = row[:, 0:4]
        swapped[rows, :] = torch.cat((row[:, 4:8], head * 2), dim=1)
        wide = torch.nn.functional.pad(head.to(torch.float32), (2, 0), value=fill)
        padded[rows, :] = torch.nn.functional.pad(wide, (0, 3), value=float("-inf"))
    return swapped, padded


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    swapped, padded = edge_joins(x)
    torch.testing.assert_close(swapped, torch.cat((x[:, 4:8], x[:, :4] * 2), dim=1))
    expected = torch.nn.functional.pad(x[:, :4], (2, 0), value=-1.0)
    expected = torch.nn.functional.pad(expected, (0, 3), value=float("-inf"))
    torch.testing.assert_close(padded, expected)


if __name__ == "__main__":
    main()
