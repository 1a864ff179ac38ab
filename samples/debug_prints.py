"""Print from a kernel: texts, sizes, a row sum per block, and the host's own print.

In device code each printed array is a line of its own (``pl.debug_print``), headed by the
texts and numbers before it; on the host ``print`` is Python's. The kernel's result is the
scaled input, so the prints are all it adds.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def debug_prints(x: torch.Tensor, scale: float = 2.0) -> torch.Tensor:
    """``x * scale``, printing each block's row sums and the first column's total."""
    m, n = x.size()
    out = torch.empty_like(x)
    print("rows and columns:", m, n)
    for tile_m in hl.tile(m):
        row = x[tile_m, :].to(torch.float32)
        print("row sums", row.sum(dim=1), "of", n, "columns")
        print("first column total", row[:, 0].sum())
        out[tile_m, :] = (row * scale).to(out.dtype)
    return out


def main() -> None:
    x = torch.randn(64, 256, device="cuda")
    torch.testing.assert_close(debug_prints(x), x * 2.0)


if __name__ == "__main__":
    main()
