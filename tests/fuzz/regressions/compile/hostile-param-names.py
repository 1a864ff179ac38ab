import torch
import helion
import helion.language as hl


@helion.kernel()
def k(x: torch.Tensor, _K_CONFIGS: float = 1.0, _k_kernel: float = 2.0, len: float = 3.0, jnp: float = 0.0, jnp_: float = 0.0) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile] * _K_CONFIGS * _k_kernel * len + jnp + jnp_ + 1.0
    return out
