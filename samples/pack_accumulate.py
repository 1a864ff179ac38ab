"""A list of tensors read by constant indices only, so the caller may pass more elements than
the kernel reads; the kernel updates two of them in place, and the module returns them."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def pack_accumulate(outs: list[torch.Tensor], x: torch.Tensor) -> None:
    """``outs[0] += x`` and ``outs[1] *= x``; later elements of ``outs`` are left alone."""
    for tile in hl.tile(x.size(0)):
        outs[0][tile] += x[tile]
        outs[1][tile] = outs[1][tile] * x[tile]


def reference(outs, x):
    outs[0] += x
    outs[1] *= x


def main() -> None:
    outs = [torch.randn(1000, device="cuda") for _ in range(3)]
    x = torch.randn(1000, device="cuda")
    expected = [o.clone() for o in outs]
    reference(expected, x)
    pack_accumulate(outs, x)
    torch.testing.assert_close(outs, expected)


if __name__ == "__main__":
    main()
