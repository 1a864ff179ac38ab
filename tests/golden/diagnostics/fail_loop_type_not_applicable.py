import torch

import helion
import helion.language as hl


@helion.kernel()
def softmax_two_pass(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        mi = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        di = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            values = x[tile_m, tile_n].to(torch.float32)
            new_mi = torch.maximum(mi, values.amax(-1))
            di = di * torch.exp(mi - new_mi) + torch.exp(values - new_mi[:, None]).sum(-1)
            mi = new_mi
        for tile_n in hl.tile(n):
            values = x[tile_m, tile_n].to(torch.float32)
            out[tile_m, tile_n] = (torch.exp(values - mi[:, None]) / di[:, None]).to(out.dtype)
    return out
