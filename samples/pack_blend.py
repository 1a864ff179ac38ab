"""A list of tensors unpacked into names and a dict of tensors read by key; ``zip`` pairs the
list's elements with the outputs."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def pack_blend(
    pair: list[torch.Tensor], gates: dict[str, torch.Tensor]
) -> tuple[torch.Tensor, torch.Tensor]:
    """Each of the two inputs times ``gates["scale"]`` plus ``gates["bias"]`` (row vectors)."""
    a, b = pair
    scale = gates["scale"]
    m, n = a.size()
    lo = torch.empty_like(a)
    hi = torch.empty_like(b)
    for tile_m, tile_n in hl.tile([m, n]):
        for src, dst in zip(pair, (lo, hi), strict=True):
            dst[tile_m, tile_n] = src[tile_m, tile_n] * scale[tile_n] + gates["bias"][tile_n]
    return lo, hi


def reference(pair, gates):
    return tuple(x * gates["scale"] + gates["bias"] for x in pair)


def main() -> None:
    pair = [torch.randn(128, 256, device="cuda") for _ in range(2)]
    gates = {"scale": torch.randn(256, device="cuda"), "bias": torch.randn(256, device="cuda")}
    torch.testing.assert_close(pack_blend(pair, gates), reference(pair, gates))


if __name__ == "__main__":
    main()
