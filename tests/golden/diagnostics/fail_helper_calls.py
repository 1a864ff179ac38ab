import torch

import helion
import helion.language as hl


def _halve(v):
    # Recursion: an inlined helper cannot call itself.
    return _halve(v * 0.5)


def _clipped(v, low):
    # A statement other than an assignment to a name or the final `return`.
    if low > 0:
        v = v + low
    return v


def _scaled(v):
    # `scale` is the kernel's local, not a name this function sees.
    return v * scale


@helion.kernel()
def recursive(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = _halve(x[tile])
    return out


@helion.kernel()
def branchy(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = _clipped(x[tile], 1.0)
    return out


@helion.kernel()
def sees_kernel_local(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    scale = 2.0
    for tile in hl.tile(x.size(0)):
        out[tile] = _scaled(x[tile])
    return out
