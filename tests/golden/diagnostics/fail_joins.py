import torch

import helion
import helion.language as hl


# torch.cat and F.pad join along an axis that is whole in every part; the result's size is the
# sum of the parts' (`cols`: x.size(1) + y.size(1), a computed size; `widened`: n + n), and a
# pad width a number or a host int.
@helion.kernel()
def joins(x: torch.Tensor, y: torch.Tensor, flag: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, 2 * n], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        rows = torch.cat([x[tile_m, :], y[tile_m, :]], dim=0)
        cols = torch.cat([x[tile_m, :], y[tile_m, :]], dim=1)
        mirrored = torch.nn.functional.pad(x[tile_m, :], (1, 1), mode="reflect")
        cropped = torch.nn.functional.pad(x[tile_m, :], (-1, 0))
        widened = torch.nn.functional.pad(x[tile_m, :], (0, n))
        blocked = torch.nn.functional.pad(x[tile_m, :], (0, tile_m.block_size))
        picked = x[tile_m, :] if flag[tile_m].sum() > 0 else y[tile_m, :]
        out[tile_m, :] = cols
    return out
