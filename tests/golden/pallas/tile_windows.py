"""Windows of a loaded block: a loop over its live rows in pairs (its last step masked before the
sum), a loop over four rows and a constant slice (each with the rows every block must hold),
and literal sizes checked against x's axes before the launch."""

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def tile_windows(x: torch.Tensor) -> torch.Tensor:
    tokens, heads, width = x.size()
    out = torch.empty([1, heads, width], dtype=torch.float32, device=x.device)
    for _request in hl.grid(1):
        acc = hl.zeros([2, 128], dtype=torch.float32)
        for outer in hl.tile(tokens, block_size=8):
            x_block = x[outer, :, :]
            live = outer.end - outer.begin
            for pair in hl.tile(live, block_size=2):
                acc = acc + x_block[pair.index, :, :].to(torch.float32).sum(dim=0)
            for four in hl.tile(4, block_size=1):
                acc = acc + x_block[four.begin, :, :].to(torch.float32)
            acc = acc + x_block[1:3, :, :].to(torch.float32).sum(dim=0)
        out[0, :, :] = acc
    return out
