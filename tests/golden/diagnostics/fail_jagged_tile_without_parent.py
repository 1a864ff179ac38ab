# A jagged tile indexing a tensor without the tile of its lengths: each row has its own end,
# so the index must say which row.
import torch
import helion
import helion.language as hl


@helion.kernel()
def lone_jagged(x: torch.Tensor, lengths: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    b = x.size(0)
    out = torch.empty([b], dtype=torch.float32, device=x.device)
    for tile_b in hl.tile(b):
        acc = hl.zeros([tile_b], dtype=torch.float32)
        for tile_k in hl.jagged_tile(lengths[tile_b]):
            acc = acc + (x[tile_b, tile_k] * scale[tile_k][None, :]).sum(dim=1)
        out[tile_b] = acc
    return out
