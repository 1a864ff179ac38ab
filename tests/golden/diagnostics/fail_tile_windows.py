import torch

import helion
import helion.language as hl


# Windows of a tile value must stay inside what the value holds; literal sizes must agree.
@helion.kernel()
def windows(x: torch.Tensor, out: torch.Tensor) -> None:
    tokens, heads, width = x.size()
    for _request in hl.grid(1):
        acc = hl.zeros([2, 128], dtype=torch.float32)
        for outer in hl.tile(tokens, block_size=4):
            x_block = x[outer, :, :]
            live = outer.end - outer.begin
            for row in hl.tile(live + 4, block_size=1):
                shifted = x_block[row.begin, :, :]
            last = x_block[-1, :, :]
            rest = x_block[2:, :, :]
            past = acc[:, 100:200]
            other = acc + hl.zeros([4, 128], dtype=torch.float32)
            column = x_block[:, :, live]
            tail = x_block[live - 3 : live, :, :]
        out[0, :, :] = acc
