# A mean along a jagged tile: the masked elements would count in the divisor.
import torch
import helion
import helion.language as hl


@helion.kernel()
def jagged_means(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    b = x.size(0)
    out = torch.zeros([b], dtype=torch.float32, device=x.device)
    for tile_b in hl.tile(b):
        for tile_k in hl.jagged_tile(lengths[tile_b]):
            out[tile_b] = x[tile_b, tile_k].mean(dim=1)
    return out
