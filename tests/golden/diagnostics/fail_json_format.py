# RUN-ARGS: --diagnostics-format json
import torch

import helion
import helion.language as hl


@helion.kernel()
def exp_both(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(a)
    for tile in hl.tile(a.size()):
        out[tile] = torch.exp(a[tile], b[tile])
    return out
