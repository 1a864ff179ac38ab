# RUN-ARGS: --emit reference
"""`--emit reference` of a kernel that reads `tile.id`: the reference has no blocks where the
config chooses the block size, so the construct is an error at its place (the Pallas module of
the same kernel compiles, and its reference_block_offsets raises NotImplementedError)."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def block_offsets(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] + tile.id
    return out
