import torch

import helion
import helion.language as hl


# A view of a tile's block in groups (`tile.block_size // 2`) needs a divisor that divides a
# block the source fixes, a loop from 0 over a range known before the launch, and leaves the
# groups axis alone: no reduction or indexing along it (a partial block's last groups are
# padding).
@helion.kernel()
def odd_fixed_block(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m, block_size=3):
        pairs = x[tile_m, :].view(tile_m.block_size // 2, 2, n)
        out[tile_m, :] = pairs.view(tile_m.block_size, n)
    return out


@helion.kernel()
def grouped_with_begin(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros_like(x)
    for tile_n in hl.tile(2, n):
        pairs = x[0, tile_n].view(tile_n.block_size // 2, 2)
        out[0, tile_n] = pairs.view(tile_n.block_size)
    return out


@helion.kernel()
def sum_of_groups(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, 2], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        pairs = x[tile_m, :].view(tile_m.block_size // 2, 2, n)
        out[tile_m, :] = pairs.sum(0)
    return out


@helion.kernel()
def window_of_groups(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        pairs = x[tile_m, tile_n].view(tile_m.block_size, tile_n.block_size // 2, 2)
        out[tile_m, tile_n] = pairs[:, 0:1, :].view(tile_m.block_size, 2)
    return out
