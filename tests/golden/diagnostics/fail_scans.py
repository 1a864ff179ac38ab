import torch
import helion
import helion.language as hl


def add(a, b):
    return a + b


def pair_sum(left, right):
    return left + right


def with_loop(a, b):
    for _ in range(2):
        a = a + b
    return a


@helion.kernel
def tiled_scan(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile(x.size()):
        out[tile_m, tile_n] = hl.associative_scan(add, x[tile_m, tile_n], dim=1)
    return out


@helion.kernel
def wrong_combines(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        row = x[tile, :]
        a = hl.reduce(pair_sum, (row, row), dim=1)
        b = hl.associative_scan(with_loop, row, dim=1)
        c = hl.associative_scan(torch.add, row, dim=1)
        d = torch.cumsum(row)
    return out
