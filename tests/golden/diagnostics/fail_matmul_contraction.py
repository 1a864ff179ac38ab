import torch

import helion
import helion.language as hl


@helion.kernel()
def scores(q: torch.Tensor, k: torch.Tensor) -> torch.Tensor:
    b, m, d = q.size()
    n = k.size(1)
    out = torch.empty([b, m, n], dtype=torch.float32, device=q.device)
    for tile_b, tile_m, tile_n in hl.tile([b, m, n]):
        # k is [b, n, d]: without the transpose the head dimension meets tile_n
        out[tile_b, tile_m, tile_n] = torch.bmm(q[tile_b, tile_m, :], k[tile_b, tile_n, :])
        out[tile_b, tile_m, tile_n] = torch.mm(q[tile_b, tile_m, :], k[tile_b, tile_n, :].transpose(1, 2))
    return out
