"""Host code on whole tensors around a launch: arithmetic before it (on an input) and after it
(on its outputs), and an input's stride, which the module reads as a contiguous array's."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def host_arithmetic(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``(x - 1) * y + 2 * (y + x.stride(0)) + x`` for same-shape tensors of any rank."""
    row_stride = x.stride(0)
    shifted = x - 1.0
    products = torch.empty_like(x)
    offsets = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        products[tile] = shifted[tile] * y[tile]
        offsets[tile] = y[tile] + row_stride
    return products + 2.0 * offsets - (-x)


def reference(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return (x - 1.0) * y + 2.0 * (y + x.stride(0)) + x


def main() -> None:
    x = torch.randn(256, 384, device="cuda")
    y = torch.randn(256, 384, device="cuda")
    torch.testing.assert_close(host_arithmetic(x, y), reference(x, y))


if __name__ == "__main__":
    main()
