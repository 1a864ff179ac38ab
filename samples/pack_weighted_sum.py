"""A tuple of tensors as one parameter: ``enumerate`` over it is unrolled, and each element is
an input of the launch of its own."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def pack_weighted_sum(xs: tuple[torch.Tensor, torch.Tensor, torch.Tensor]) -> torch.Tensor:
    """``1 * xs[0] + 2 * xs[1] + 3 * xs[2]``, accumulated in float32."""
    m, n = xs[0].size()
    out = torch.empty_like(xs[0])
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for weight, x in enumerate(xs, start=1):
            acc = acc + x[tile_m, tile_n].to(torch.float32) * weight
        out[tile_m, tile_n] = acc.to(out.dtype)
    return out


def reference(xs: tuple[torch.Tensor, torch.Tensor, torch.Tensor]) -> torch.Tensor:
    return sum((i + 1) * x.float() for i, x in enumerate(xs)).to(xs[0].dtype)


def main() -> None:
    xs = tuple(torch.randn(256, 384, device="cuda") for _ in range(3))
    torch.testing.assert_close(pack_weighted_sum(xs), reference(xs))


if __name__ == "__main__":
    main()
