# RUN-ARGS: --target tpu-v4 --shapes 'x=64x1048576:f32'
"""A row softmax with the row kept whole: for rows of 2^20 float32 the default block (one
sublane tile of 8 rows, 32 MiB; x and out double-buffered: 128 MiB) does not fit a v4 core's
16 MiB. `scale` tiles a shape whose rank is known only at trace time (not accounted), and
`add_rows` has no --shapes call that fits it (the report asks for one)."""

import torch

import helion
import helion.language as hl


@helion.kernel()
def softmax(x: torch.Tensor) -> torch.Tensor:
    n, _m = x.size()
    out = torch.empty_like(x)
    for tile_n in hl.tile(n):
        values = x[tile_n, :]
        amax = torch.amax(values, dim=1, keepdim=True)
        exp = torch.exp(values - amax)
        out[tile_n, :] = exp / torch.sum(exp, dim=1, keepdim=True)
    return out


@helion.kernel()
def scale(x: torch.Tensor, alpha: float) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile] * alpha
    return out


@helion.kernel()
def add_rows(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m, tile_n in hl.tile([m, n]):
        out[tile_m, tile_n] = x[tile_m, tile_n] + bias[tile_n]
    return out
