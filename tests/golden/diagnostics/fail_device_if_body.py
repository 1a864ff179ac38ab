import torch

import helion
import helion.language as hl


# An `if` on a device scalar that only assigns names runs both sides and selects the names:
# they must be tile values. (One that stores runs under `pl.when`.)
@helion.kernel()
def branches(x: torch.Tensor, out: torch.Tensor) -> None:
    tokens, heads, width = x.size()
    for _request in hl.grid(1):
        acc = hl.zeros([2, 128], dtype=torch.float32)
        for outer in hl.tile(tokens, block_size=4):
            x_block = x[outer, :, :]
            live = outer.end - outer.begin
            if live >= 3:
                out[0, :, :] = acc
            count = live - 1
            if live >= 2:
                count = live - 2
            if live >= 1:
                acc = acc + x_block[0, :, :]
        out[0, :, :] = acc
