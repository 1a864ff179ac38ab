"""A config key of the kernel's own: ``hl.register_tunable("k_slices", ...)`` is the number of
slices the K axis is cut into, a power of two the search may pick; the slice width is computed
from it on the host with ``helion.cdiv`` and ``helion.next_power_of_2`` and fixes the block
size of the outer loop's K dimension. ``hl.constexpr`` picks the code while JAX traces: one
slice stores its product, several add theirs into the output with ``hl.atomic_add`` (README,
"Tunables of the kernel's own")."""

from __future__ import annotations

import torch

import helion
import helion.language as hl
from helion.autotuner import PowerOfTwoFragment


@helion.kernel(static_shapes=True)
def tunable_split_k(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """``x @ y`` in float32, accumulated over ``k_slices`` slices of K."""
    m, k = x.size()
    _, n = y.size()
    out = torch.zeros([m, n], dtype=torch.float32, device=x.device)
    k_slices = hl.register_tunable("k_slices", PowerOfTwoFragment(1, 8, 2))
    slice_width = helion.next_power_of_2(helion.cdiv(k, k_slices))
    sliced = hl.constexpr(k_slices > 1)
    for tile_m, tile_n, k_part in hl.tile([m, n, k], block_size=[None, None, slice_width]):
        partial = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k_part.begin, k_part.end):
            partial = torch.addmm(partial, x[tile_m, tile_k], y[tile_k, tile_n])
        if sliced:
            hl.atomic_add(out, [tile_m, tile_n], partial)
        else:
            out[tile_m, tile_n] = partial
    return out


def check(m: int, k: int, n: int) -> None:
    x = torch.randn([m, k], device="cuda", dtype=torch.bfloat16)
    y = torch.randn([k, n], device="cuda", dtype=torch.bfloat16)
    expected = x.float() @ y.float()
    torch.testing.assert_close(tunable_split_k(x, y), expected, rtol=1e-2, atol=1e-1)


if __name__ == "__main__":
    check(256, 1000, 384)
