"""Row-wise softmax, as in Helion's examples/softmax.py.

Each program owns ``block_m`` whole rows (``x[tile_m, :]``): the row is reduced in VMEM, so the
reduced dimension is never tiled. Two spellings of the same function: ``torch.nn.functional``
and the decomposed max-subtract / exp / sum / divide form.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def softmax(x: torch.Tensor) -> torch.Tensor:
    """``torch.softmax(x, dim=1)`` for a 2-D ``x``."""
    m, _n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :] = torch.nn.functional.softmax(x[tile_m, :], dim=1)
    return out


def check(m: int, n: int) -> None:
    from helion._testing import run_example

    x = torch.randn([m, n], device="cuda", dtype=torch.float16)
    run_example(softmax, lambda x: torch.nn.functional.softmax(x, dim=1), (x,))


def main() -> None:
    check(4096, 2560)


if __name__ == "__main__":
    main()
