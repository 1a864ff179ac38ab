import torch
import helion
import helion.language as hl


# The k steps add into one block of `out`: an order that runs m or n inside k is refused.
@helion.kernel(config=helion.Config(block_sizes=[1, 8, 128], loop_orders=[[2, 0, 1]]))
def contributions(x: torch.Tensor) -> torch.Tensor:
    k, m, n = x.shape
    out = torch.zeros([m, n], dtype=x.dtype, device=x.device)
    for tile_k, tile_m, tile_n in hl.tile([k, m, n]):
        hl.atomic_add(out, [tile_m, tile_n], x[tile_k, tile_m, tile_n].sum(0))
    return out
