"""Index ramps with starts and steps, powers, and choices made while JAX traces.

``hl.arange(start, end, step)`` (and ``torch.arange`` in device code) is ``start + step *
iota``; its element count, (end - start) / step, must name a dimension: here one block of the
tile (``tile.begin * 2`` to ``(tile.begin + tile.block_size) * 2`` in steps of 2) or a number
(``hl.arange(3, 7)``). ``a if flag else b`` on a flag known when JAX traces (a bool argument)
picks one branch then; ``x.pow(e)`` is ``x ** e``; a tile value's ``.shape[d]`` is the size of
its dimension d (here ``tile.block_size``); ``torch.get_default_dtype()`` is float32, and
``torch.tensor(2, dtype=torch.float32)`` a number of that kind.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def stepped_ramps(x: torch.Tensor, squared: bool = True) -> torch.Tensor:
    """``f(x) * scale + 2 i + (i + 1) + 20`` at position i, where f is the square and the scale
    2 when `squared`, else the absolute value and 0.5 (18 + 2: a range's sum and a 0-d
    tensor)."""
    n = x.size(0)
    out = torch.empty([n], dtype=torch.float32, device=x.device)
    scale = 2.0 if squared else 0.5
    for tile in hl.tile(n):
        v = x[tile].to(torch.float32)
        base = hl.zeros([v.shape[0]], dtype=torch.get_default_dtype(), device=x.device)
        shaped = v.pow(2) if squared else v.abs()
        evens = hl.arange(tile.begin * 2, (tile.begin + tile.block_size) * 2, step=2)
        after = torch.arange(
            tile.begin + 1, tile.begin + tile.block_size + 1, device=x.device
        )
        small = hl.arange(3, 7).sum() + torch.tensor(2, dtype=torch.float32)
        ramps = evens.to(torch.float32) + after.to(torch.float32) + small.to(torch.float32)
        out[tile] = base + shaped * scale + ramps
    return out


def main() -> None:
    x = torch.randn(1000, device="cuda")
    i = torch.arange(1000, device="cuda", dtype=torch.float32)
    expected = x.pow(2) * 2.0 + 2 * i + (i + 1) + 20
    torch.testing.assert_close(stepped_ramps(x), expected)


if __name__ == "__main__":
    main()
