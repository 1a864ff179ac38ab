import torch

import helion
import helion.language as hl


def make_kernel(cfg):
    # A parameter: its value is known only when make_kernel runs.
    @helion.kernel(config=cfg)
    def negate(x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        for tile in hl.tile(x.size(0)):
            out[tile] = -x[tile]
        return out

    return negate


def make_kernels():
    kernels = []
    for blocks in ([32], [64]):
        # Bound by the loop, the config's block sizes have no one value.
        @helion.kernel(config=helion.Config(block_sizes=blocks))
        def double(x: torch.Tensor) -> torch.Tensor:
            out = torch.empty_like(x)
            for tile in hl.tile(x.size(0)):
                out[tile] = 2 * x[tile]
            return out

        kernels.append(double)
    return kernels


# Not at the top level: make_kernel's `cfg` is no name here.
@helion.kernel(config=cfg)
def negate_top(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = -x[tile]
    return out
