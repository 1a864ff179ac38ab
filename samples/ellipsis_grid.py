"""`...` with `hl.grid` indices, as Helion's tests write it (`dst[..., i] = value`,
`x[i, ..., j]`): each step stores one column of a batch of matrices, in place. The ranks are
stated by unpacking the shapes, so `...` expands while compiling."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def ellipsis_grid(src: torch.Tensor, dst: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Column ``i`` of ``dst`` [b, m, n] becomes ``i + 1``, and that of ``src`` (its shape)
    twice ``dst``'s; row 0 of ``src``'s last matrix then gains 0.5 per column (`src[b - 1, ...,
    j]` is the column `j` of the last matrix, the middle axis whole)."""
    b, _, n = src.size()
    _, _, _ = dst.size()
    for i in hl.grid(n):
        dst[..., i] = i + 1.0
        src[..., i] = dst[..., i] * 2.0
    for j in hl.grid(n):
        src[b - 1, ..., j] = src[b - 1, ..., j] + 0.5
    return src, dst


def main() -> None:
    src = torch.zeros(2, 3, 32, device="cuda")
    dst = torch.zeros(2, 3, 32, device="cuda")
    ellipsis_grid(src, dst)
    cols = torch.arange(32, device="cuda") + 1.0
    torch.testing.assert_close(dst, cols.expand(2, 3, 32))
    expected = 2 * cols.expand(2, 3, 32).clone()
    expected[1] += 0.5
    torch.testing.assert_close(src, expected)


if __name__ == "__main__":
    main()
