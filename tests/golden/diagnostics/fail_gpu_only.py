import torch

import helion
import helion.language as hl


# GPU-only functions are not possible on a TPU at all: the message says why, rather than
# "not supported yet".
@helion.kernel()
def shifted(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = hl.inline_asm_elementwise(
            "shl.b32 $0, $1, 1;", "=r,r", [x[tile]], dtype=torch.int32, is_pure=True, pack=1
        )
    return out


@helion.kernel()
def stacked(x: torch.Tensor, pointers: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        tensors = hl.stacktensor_like(x, pointers)
        out[tile] = x[tile]
    return out
