"""hl.load with extra_mask reads masked-off elements as 0; hl.store writes the same block."""
import torch
import helion
import helion.language as hl

@helion.kernel()
def masked(x: torch.Tensor, lim: int = 100) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        v = hl.load(x, [tile_m, tile_n], extra_mask=(tile_n.index < lim)[None, :])
        hl.store(out, [tile_m, tile_n], v * 2)
    return out
