import torch

import helion
import helion.language as hl


@helion.kernel(config=helion.Config(pallas_loop_type=["grid"]))
def jagged_sums(x: torch.Tensor, lengths: torch.Tensor) -> torch.Tensor:
    _, d = x.size()
    out = torch.empty([lengths.size(0), d], dtype=torch.float32, device=x.device)
    for b in hl.grid(lengths.size(0)):
        n = lengths[b]
        acc = hl.zeros([d], dtype=torch.float32)
        for tile in hl.tile(0, n):
            acc = acc + x[tile, :].sum(0)
        out[b, :] = acc
    return out
