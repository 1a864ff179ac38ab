import torch

import helion
import helion.language as hl


# Sizes computed from other sizes are dimensions of their own (checked at trace time where they
# meet others); these uses of sizes and of `*` in calls are each reported.
@helion.kernel()
def computed(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        halves = v.view(tile_m, tile_n.block_size - 2, 2)
        left, right = hl.split(v)
        joined = hl.join(v, w[tile_m, :])
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        acc = hl.dot(v, w[tile_n, :], acc=acc)
        picked = torch.maximum(*[v, v])
        out[tile_m, tile_n] = v
    return out.view(**{"shape": x.shape})
