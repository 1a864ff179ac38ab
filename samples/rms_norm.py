"""RMS norm forward (Helion's examples/rms_norm.py): ``x / sqrt(mean(x**2) + eps) * weight``.

Returns the normalised rows and the per-row reciprocal RMS, both in the input's dtype.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel
def rms_norm_fwd(
    x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-5
) -> tuple[torch.Tensor, torch.Tensor]:
    """RMS-normalise each row of ``x`` [m, n] and scale it by ``weight`` [n]."""
    m, n = x.size()
    assert weight.size(0) == n, f"weight size mismatch {weight.size(0)} != {n}"

    out = torch.empty_like(x)
    inv_rms = torch.empty([m], dtype=x.dtype, device=x.device)

    for tile_m in hl.tile(m):
        x_tile = x[tile_m, :].to(torch.float32)

        # Compute inverse RMS: 1/sqrt(mean(x^2) + eps)
        x_squared = x_tile * x_tile
        mean_x_squared = torch.mean(x_squared, dim=-1)
        inv_rms_tile = torch.rsqrt(mean_x_squared + eps)

        # Apply normalization and weight
        normalized = x_tile * inv_rms_tile[:, None]
        out[tile_m, :] = (normalized * weight[:].to(torch.float32)).to(out.dtype)
        inv_rms[tile_m] = inv_rms_tile.to(out.dtype)

    return out, inv_rms


def rms_norm_pytorch(x: torch.Tensor, weight: torch.Tensor, eps: float = 1e-5) -> torch.Tensor:
    input_dtype = x.dtype
    hidden_states = x.to(torch.float32)
    variance = hidden_states.pow(2).mean(-1, keepdim=True)
    hidden_states = hidden_states * torch.rsqrt(variance + eps)
    return weight * hidden_states.to(input_dtype)


def main() -> None:
    x = torch.randn([2048, 4096], device="cuda", dtype=torch.bfloat16)
    weight = torch.randn([4096], device="cuda", dtype=torch.bfloat16)
    out, _ = rms_norm_fwd(x, weight)
    torch.testing.assert_close(out, rms_norm_pytorch(x, weight), rtol=1e-2, atol=1e-2)


if __name__ == "__main__":
    main()
