"""Pick elements of each column by position: ``torch.gather`` along the sublane axis.

``out[i, j] = x[index[i, j], j]``. The columns of ``x`` are read whole (``x[:, cols]``), since
the indices are positions along the whole first axis; the indices and the result are tiled on
both axes. From TPU v5 on Mosaic gathers along sublanes; TPU v4 cannot, and picks by one-hot.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def column_pick(x: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``torch.gather(x, 0, index)`` for x [n, cols] and index [picks, cols] below n."""
    out = torch.empty(index.size(), dtype=x.dtype, device=x.device)
    for picks, cols in hl.tile(index.size()):
        out[picks, cols] = torch.gather(x[:, cols], 0, index[picks, cols])
    return out


def main() -> None:
    x = torch.randn(256, 64, device="cuda")
    index = torch.randint(0, 256, (100, 64), device="cuda")
    torch.testing.assert_close(column_pick(x, index), torch.gather(x, 0, index))


if __name__ == "__main__":
    main()
