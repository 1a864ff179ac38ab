"""Pick elements of each row by position: ``torch.gather`` along the lane axis.

``out[i, j] = x[i, index[i, j]]``. The rows of ``x`` are read whole (``x[rows, :]``), since the
indices are positions along the whole axis; the indices and the result are tiled on both axes.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def row_pick(x: torch.Tensor, index: torch.Tensor, scale: float = 2.0) -> torch.Tensor:
    """``scale * torch.gather(x, 1, index)`` in float32."""
    out = torch.empty(index.size(), dtype=torch.float32, device=x.device)
    for rows, picks in hl.tile(index.size()):
        picked = torch.gather(x[rows, :], 1, index[rows, picks])
        out[rows, picks] = picked.to(torch.float32) * scale
    return out


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    index = torch.randint(0, 256, (64, 100), device="cuda")
    torch.testing.assert_close(row_pick(x, index), 2.0 * torch.gather(x, 1, index))


if __name__ == "__main__":
    main()
