import torch

import helion
import helion.language as hl


@helion.kernel()
def read_outside(x: torch.Tensor, scale: hl.constexpr = True) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        if scale:
            factor = x[tile] * 2
        out[tile] = factor
    return out


@helion.kernel()
def other_way_round(x: torch.Tensor, scale: hl.constexpr = True) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        if scale:
            factor = x[tile] * 2
        if not scale:
            out[tile] = factor
        else:
            out[tile] = x[tile]
    return out


@helion.kernel()
def carried_index(x: torch.Tensor, shift: hl.constexpr = True) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        if shift:
            first = tile_m.begin
        for tile_n in hl.tile(n):
            if shift:
                first = first + 1
            out[tile_m, tile_n] = x[tile_m, tile_n]
    return out


@helion.kernel()
def carried_other_shape(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m, n], dtype=torch.float32)
        for tile_k in hl.tile(n):
            acc = x[tile_m, :] + y[:, tile_k]
        out[tile_m, :] = acc
    return out
