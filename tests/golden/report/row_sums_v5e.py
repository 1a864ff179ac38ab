# RUN-ARGS: --target tpu-v5e --shapes 'x=1000x300:f32;x=100x300:f32;x=64x256:bf16'
"""Row sums stored as a row of values: TPU v5 compilers take a scratch to move a lane
reduction's result into lanes, 36 KiB once per kernel, when it has more than 128 float32 values
(the 512-row blocks of the first call, not the 100 rows of the second) or 16-bit elements (the
third); the report shows it on a line of its own. `centered` keeps its sums as a column
(`keepdim=True`): no move."""

import torch

import helion
import helion.language as hl


@helion.kernel(config=helion.Config(block_sizes=[512]))
def row_sums(x: torch.Tensor) -> torch.Tensor:
    m, _n = x.size()
    out = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        out[tile_m] = x[tile_m, :].sum(-1)
    return out


@helion.kernel(config=helion.Config(block_sizes=[512]))
def centered(x: torch.Tensor) -> torch.Tensor:
    m, _n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        values = x[tile_m, :]
        out[tile_m, :] = values - values.sum(-1, keepdim=True)
    return out
