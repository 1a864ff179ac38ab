import torch

import helion
import helion.language as hl


# No hl.tile/hl.grid loop: Helion refuses these kernels (NoDeviceLoopsInKernel); helionc warns
# and prints their host code as jnp, with no pallas_call.
@helion.kernel()
def passthrough(x: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    return x


@helion.kernel()
def halved_sum(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return (x + y) * 0.5


@helion.kernel()
def device_key(device: hl.constexpr) -> None:
    pass
