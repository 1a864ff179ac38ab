"""Products with their operands' dtypes known (written out as jax.lax.dot_general) and unknown
(the `_dot` helper), a transpose folded into the dimension numbers, and an inlined epilogue."""

from typing import Callable

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scores(
    q: torch.Tensor,
    k: torch.Tensor,
    epilogue: Callable[[torch.Tensor, tuple[torch.Tensor, ...]], torch.Tensor] = lambda acc, tile: torch.relu(acc) * 0.5,
) -> torch.Tensor:
    b, m, d = q.size()
    n = k.size(1)
    out = torch.empty([b, m, n], dtype=q.dtype, device=q.device)
    for tile_b, tile_m, tile_n in hl.tile([b, m, n]):
        exact = hl.dot(q[tile_b, tile_m, :].float(), k[tile_b, tile_n, :].float().transpose(1, 2))
        fast = torch.bmm(q[tile_b, tile_m, :], k[tile_b, tile_n, :].transpose(1, 2))
        out[tile_b, tile_m, tile_n] = epilogue(exact + fast, (tile_b, tile_m, tile_n))
    return out
