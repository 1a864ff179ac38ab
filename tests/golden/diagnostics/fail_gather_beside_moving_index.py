# A gather beside a scalar index that moves inside the kernel (`row.begin` of an inner loop):
# the gather reads the block as the index map places it, where the moving index would need its
# axis whole and picked. Scalars an index map computes may stand beside a gather.
import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def rows_at_ids(x: torch.Tensor, ids: torch.Tensor) -> torch.Tensor:
    rows, n = x.size()
    out = torch.empty([rows, ids.size(0)], dtype=x.dtype, device=x.device)
    for tile_i in hl.tile(ids.size(0)):
        for row in hl.tile(rows, block_size=1):
            out[row.begin, tile_i] = x[row.begin, ids[tile_i]]
    return out
