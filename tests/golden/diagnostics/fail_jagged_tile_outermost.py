# `hl.jagged_tile` as a kernel's outermost loop: its lengths are per row of an enclosing tile.
import torch
import helion
import helion.language as hl


@helion.kernel()
def outer_jagged(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.jagged_tile(lengths):
        out[tile] = x[tile]
    return out
