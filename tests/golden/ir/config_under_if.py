import os

import torch

import helion
import helion.language as hl

# The decorator reads `config` when the kernel is defined: helionc cannot evaluate the `if`, so
# it takes the value assigned outside it (None: no built-in config) and warns at the other.
config = None
if os.environ.get("SMALL_BLOCKS") == "1":
    config = helion.Config(block_sizes=[32])

# A config assigned before the `if` that sets it again: the same rule.
configs = [helion.Config(block_sizes=[128])]
if os.environ.get("SMALL_BLOCKS") == "1":
    configs = [helion.Config(block_sizes=[8])]
elif os.environ.get("SMALL_BLOCKS") == "2":
    configs = None


@helion.kernel(config=config)
def scale_default(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * 2
    return out


@helion.kernel(configs=configs)
def scale_listed(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * 2
    return out


def small_config() -> helion.Config:
    """A helper that only returns a config: the decorator's call of it is that config."""
    return helion.Config(block_sizes=[16])


@helion.kernel(config=small_config())
def scale_helper(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * 2
    return out
