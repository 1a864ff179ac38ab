# RUN-ARGS: -Werror
import torch

import helion


@helion.kernel()
def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return x + y
