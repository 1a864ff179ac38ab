"""A kernel without an ``hl.tile`` or ``hl.grid`` loop: host code alone.

Helion refuses such a kernel (``NoDeviceLoopsInKernel``: it has nothing to launch). helionc
compiles it with a warning (``-Wmissing-device-loop``) to a function that runs the host code as
jnp with no ``pallas_call``: the input returned as it is, and arithmetic on whole tensors.
"""

from __future__ import annotations

import torch

import helion


@helion.kernel()
def host_only(
    x: torch.Tensor, y: torch.Tensor, eps: float = 1e-5
) -> tuple[torch.Tensor, torch.Tensor]:
    """``(x, (x + y) * 0.5 + eps)``; y broadcasts against x, mixed dtypes promote."""
    mean = (x + y) * 0.5
    return x, mean + eps


def reference(x: torch.Tensor, y: torch.Tensor, eps: float = 1e-5) -> tuple[torch.Tensor, torch.Tensor]:
    return x, (x + y) * 0.5 + eps


def main() -> None:
    # Helion itself refuses the kernel when it is called: it has no device loop to launch.
    x = torch.randn(64, 128, device="cuda")
    y = torch.randn(128, device="cuda")
    try:
        host_only(x, y)
    except helion.exc.NoDeviceLoopsInKernel:
        print("Helion: NoDeviceLoopsInKernel; reference:", reference(x, y)[1].shape)


if __name__ == "__main__":
    main()
