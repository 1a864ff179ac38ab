import torch

import helion
import helion.language as hl


# A kernel's print prints values: nothing at all is an error (as in Helion), `sep=`/`end=` are
# not supported, and a tile itself is no value (print `tile.index` or `tile.begin`).
@helion.kernel()
def empty_print(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        print()
        out[tile] = x[tile]
    return out


@helion.kernel()
def separated_print(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        print("x", x[tile], sep=", ")
        out[tile] = x[tile]
    return out


@helion.kernel()
def tile_print(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        print("tile", tile)
        out[tile] = x[tile]
    return out
