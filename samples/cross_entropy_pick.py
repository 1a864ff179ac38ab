"""Cross-entropy losses with the label logits indexed as ``logits[tile_n, labels[tile_n]]``.

In Helion a tile next to a tile of indices indexes independently: the load is
[tile_n, tile_n], every row's logits at every label of the block. Each row's own label is on the
diagonal, which ``hl.arange`` picks out. (Helion's examples/cross_entropy.py gathers from a flat
view instead; see cross_entropy_gather.py.)
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def cross_entropy_pick(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    n, v = logits.size()
    losses = torch.empty([n], dtype=torch.float32, device=logits.device)
    for tile_n in hl.tile(n):
        rows = logits[tile_n, :].to(torch.float32)
        at_labels = logits[tile_n, labels[tile_n]].to(torch.float32)  # [tile_n, tile_n]
        lane = hl.arange(tile_n.block_size)
        diagonal = lane[:, None] == lane[None, :]
        picked = torch.where(diagonal, at_labels, 0.0).sum(-1)
        top = torch.amax(rows, dim=-1)
        log_sum_exp = top + torch.log(torch.exp(rows - top[:, None]).sum(-1))
        losses[tile_n] = log_sum_exp - picked
    return losses


def check() -> None:
    logits = torch.randn(1000, 300, device="cuda")
    labels = torch.randint(0, 300, (1000,), device="cuda")
    want = torch.nn.functional.cross_entropy(logits, labels, reduction="none")
    torch.testing.assert_close(cross_entropy_pick(logits, labels), want)


if __name__ == "__main__":
    check()
