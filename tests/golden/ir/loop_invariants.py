# Loop-invariant values of an inner loop (passes/plan_hoists.h): `q` is a whole `let` computed
# from values before the loop, the row norms a part of a statement; under `fori_loop` and
# `emit_pipeline` the schedule computes them once before the loop ("before loop 0").
import torch

import helion
import helion.language as hl


@helion.kernel()
def row_scores(x: torch.Tensor, y: torch.Tensor, scale: float) -> torch.Tensor:
    m, d = x.size()
    n, d2 = y.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        xs = x[tile_m, :].to(torch.float32)
        best = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        for tile_n in hl.tile(n):
            q = xs * scale
            s = hl.dot(q, y[tile_n, :].to(torch.float32).T)
            s = s + torch.sum(xs * xs, -1)[:, None]
            best = torch.maximum(best, s.amax(-1))
        out[tile_m] = best
    return out
