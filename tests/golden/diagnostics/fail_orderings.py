import torch

import helion
import helion.language as hl


# Orderings need the whole last axis of a value, and a `k` known when JAX traces the kernel (a
# number or a host int such as the parameter `k`; not a value device code computes).
@helion.kernel()
def orderings(x: torch.Tensor, k: int) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        by_block, _ = torch.sort(x[tile_m, tile_n], dim=-1)
        by_rows, _ = torch.sort(x[:, tile_n], dim=0)
        top, _ = torch.topk(x[tile_m, :], k)
        counted, _ = torch.topk(x[tile_m, :], x[tile_m, 0].sum())
        halves, _ = torch.topk(x[tile_m, :], tile_n.block_size // 2)
        found = torch.nonzero(x[tile_m, tile_n])
        out[tile_m, tile_n] = x[tile_m, tile_n]
    return out
