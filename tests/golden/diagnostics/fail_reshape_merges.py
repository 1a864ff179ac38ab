import torch

import helion
import helion.language as hl


# A reshape that merges tiles into one dimension makes every merged tile but the last a tile of
# block size 1; each of these cannot be one, and is reported.
@helion.kernel()
def merges(x: torch.Tensor) -> torch.Tensor:
    b, h, m, d = x.size()
    out = torch.empty_like(x)
    block_h = hl.register_block_size(h)
    for tile_b, tile_h, tile_m in hl.tile([b, h, m], block_size=[2, block_h, None]):
        fixed = x[tile_b, tile_h, tile_m, :].reshape([-1, d])
        for tile_i in hl.tile(h, block_size=block_h):
            shared = x[tile_b, tile_i, tile_m, :].reshape([tile_b, -1, d])
        out[tile_b, tile_h, tile_m, :] = x[tile_b, tile_h, tile_m, :]
    return out


@helion.kernel()
def sublanes(x: torch.Tensor) -> torch.Tensor:
    b, m, d = x.size()
    out = torch.empty_like(x)
    for tile_b, tile_m, tile_d in hl.tile([b, m, d]):
        rows = x[tile_b, tile_m, tile_d].reshape([tile_b, -1])
        out[tile_b, tile_m, tile_d] = x[tile_b, tile_m, tile_d]
    return out
