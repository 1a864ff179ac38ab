import torch

import helion
import helion.language as hl


# No hl.tile/hl.grid loop (with a warning): the report needs no shapes, there is no launch.
@helion.kernel()
def scaled(x: torch.Tensor, scale: float = 2.0) -> torch.Tensor:
    return x * scale


@helion.kernel()
def device_key(device: hl.constexpr) -> None:
    pass
