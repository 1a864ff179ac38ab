"""Comprehensions over a tuple of tensors in host code: each makes a list of whole tensors
(host arrays, one per element), which a loop in the kernel then iterates, unrolled."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def pack_comprehension(xs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    """``(2 * xs[0] + 1) + (0.5 * xs[1] + 1)``, the terms made on the host."""
    weights = (2.0, 0.5)
    scaled = tuple(x * w for x, w in zip(xs, weights, strict=True))
    shifted = [y + 1.0 for y in scaled]
    out = torch.empty_like(xs[0])
    for tile in hl.tile(out.size(0)):
        acc = hl.zeros([tile], dtype=torch.float32)
        for term in shifted:
            acc = acc + term[tile].to(torch.float32)
        out[tile] = acc.to(out.dtype)
    return out


def reference(xs: tuple[torch.Tensor, torch.Tensor]) -> torch.Tensor:
    return (2.0 * xs[0] + 1.0) + (0.5 * xs[1] + 1.0)


def main() -> None:
    xs = (torch.randn(4096, device="cuda"), torch.randn(4096, device="cuda"))
    torch.testing.assert_close(pack_comprehension(xs), reference(xs))


if __name__ == "__main__":
    main()
