"""Per-slot state lookup: ``out[b] = states[slots[b]]`` for a table of states of any shape.

A row gather from a table of rank 4 (a [heads, rows, width] state per slot). The output takes
the shape of the indices followed by the table's trailing axes, unpacked with
``*states.shape[1:]`` before the kernel has said the table's rank (the subscript in the loop
does).
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def gather_states(slots: torch.Tensor, states: torch.Tensor) -> torch.Tensor:
    out = torch.empty([slots.size(0), *states.shape[1:]], dtype=states.dtype, device=states.device)
    for tile_b in hl.tile(slots.size(0)):
        out[tile_b, :, :, :] = states[slots[tile_b], :, :, :]
    return out
