"""`...` in indices: as many `:` as the other entries leave axes of the indexed tensor, expanded
while compiling (the tensor's rank must be known then: here the shapes are unpacked). It stands
for leading axes (`x[..., tile_m, tile_n]`), for none (`hl.load(w, [..., tile_n])`), for
trailing axes of a tile value (`v[0, ...]`, `scale[None, ...]`), and in host code (`x[..., 0]`)."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def ellipsis_index(x: torch.Tensor, w: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """``out = x * w + x[0]`` over a batch of matrices ``x`` [b, m, n] and a row ``w`` [n],
    and ``firsts = x[..., 0]`` [b, m]."""
    _, m, n = x.size()
    (_,) = w.size()  # w's rank, for `...`
    out = torch.empty_like(x)
    firsts = x[..., 0]
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[..., tile_m, tile_n]  # the whole batch axis
        scale = hl.load(w, [..., tile_n])  # `...` of no axes
        out[..., tile_m, tile_n] = v * scale[None, ...] + v[0, ...]
    return out, firsts


def main() -> None:
    x = torch.randn(4, 64, 256, device="cuda")
    w = torch.randn(256, device="cuda")
    out, firsts = ellipsis_index(x, w)
    torch.testing.assert_close(out, x * w + x[0])
    torch.testing.assert_close(firsts, x[..., 0])


if __name__ == "__main__":
    main()
