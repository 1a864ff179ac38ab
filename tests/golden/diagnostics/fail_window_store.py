import torch

import helion
import helion.language as hl


# A value of a size written as a number stored into a tile's block fixes that block (checked
# while the module traces); a fixed block of another size, two stores that disagree, and a
# squeeze of a whole axis (which may or may not be 1) are each reported.
@helion.kernel(static_shapes=True)
def window_store(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty([x.size(0), 128], dtype=x.dtype, device=x.device)
    for tile_a in hl.tile(x.size(0), block_size=16):
        window = x[tile_a.begin + hl.arange(8), :]
        out[tile_a, :] = window[:, hl.arange(128)]
    for tile_b in hl.tile(x.size(0)):
        eight = x[tile_b.begin + hl.arange(8), :]
        four = x[tile_b.begin + hl.arange(4), :]
        out[tile_b, :] = eight[:, hl.arange(128)]
        out[tile_b, :] = four[:, hl.arange(128)]
    for tile_c in hl.tile(x.size(0)):
        rows = x[tile_c, :]
        out[tile_c, :] = rows.squeeze(1)[:, None]
    return out
