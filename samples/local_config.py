"""A kernel defined inside a function, as Helion's tests and kernel factories define them: its
config and a constant are names the function assigns before the ``def`` (the config's block
sizes a name too). The function's own ``SCALE`` hides the module's, as in Python."""

from __future__ import annotations

import torch

import helion
import helion.language as hl

SCALE = 4.0  # not what the kernel reads: make_scale_add binds its own SCALE


def make_scale_add() -> helion.Kernel:
    blocks = [16, 128]
    cfg = helion.Config(block_sizes=blocks, num_warps=4)
    SCALE = 0.25

    @helion.kernel(config=cfg, static_shapes=True)
    def scale_add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        """``x * SCALE + y`` for same-shape 2-D ``x`` and ``y``."""
        out = torch.empty_like(x)
        for tile_m, tile_n in hl.tile(x.size()):
            out[tile_m, tile_n] = x[tile_m, tile_n] * SCALE + y[tile_m, tile_n]
        return out

    return scale_add


if __name__ == "__main__":
    x = torch.randn([64, 256], device="cuda")
    y = torch.randn([64, 256], device="cuda")
    torch.testing.assert_close(make_scale_add()(x, y), x * 0.25 + y)
