import torch

import helion
import helion.language as hl


@helion.kernel()
def add_into_corner(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    corner = x[:2, :4]
    for tile in hl.tile(corner.size()):
        corner[tile] = corner[tile] + y[tile]
    return x
