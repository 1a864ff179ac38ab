from typing import Callable

import torch

import helion
import helion.language as hl


@helion.kernel()
def host_call(x: torch.Tensor, fn: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
    y = fn(x)
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = y[tile]
    return out


@helion.kernel()
def keyword_argument(x: torch.Tensor, fn: Callable[..., torch.Tensor]) -> torch.Tensor:
    out = torch.empty([x.size(0)], dtype=x.dtype, device=x.device)
    for tile in hl.tile(x.size(0)):
        out[tile] = fn(x[tile, :], dim=-1)
    return out


@helion.kernel()
def untyped_result(x: torch.Tensor, fn: Callable[[object], torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = fn(tile)
    return out


@helion.kernel()
def not_called(x: torch.Tensor, fn: Callable[[torch.Tensor], torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        g = fn
        out[tile] = x[tile]
    return out


@helion.kernel()
def other_default(
    x: torch.Tensor, fn: Callable[[torch.Tensor], torch.Tensor] = torch.relu
) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = fn(x[tile])
    return out


@helion.kernel()
def trace_time_rank(x: torch.Tensor, fn: Callable[..., torch.Tensor]) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = fn(x[tile], tile)
    return out


@helion.kernel()
def two_dimensional_tile(x: torch.Tensor, fn: Callable[..., torch.Tensor]) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile in hl.tile([m, n]):
        out[tile] = fn(x[tile], tile)
    return out
