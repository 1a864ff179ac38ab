import torch

import helion
import helion.language as hl


@helion.kernel()
def ellipsis_and_lists(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    # `...` becomes the `:`s it stands for; the comprehension, the list written out.
    b, m, n = x.size()
    (k,) = w.size()
    out = torch.empty_like(x)
    scales = [s * 2 for s in (1, 2)]
    for tile_m, tile_n in hl.tile([m, n]):
        acc = x[..., tile_m, tile_n] * hl.load(w, [..., tile_n])[None, ...]
        for s in scales:
            acc = acc + s
        out[0, ..., tile_m, tile_n] = acc[0, ...]
    return out
