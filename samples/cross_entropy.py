"""Cross-entropy loss of a classifier, averaged over the batch on the host.

Each program owns ``block_n`` whole rows of logits. The class dimension is a single tile of the
full width (``block_size=[None, v]``), whose ``.index`` gives the class ids; the logit of each
row's label is picked with a one-hot compare instead of a gather. The per-row losses are
averaged after the device loop (``losses.mean()``), which is plain host code.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def cross_entropy(logits: torch.Tensor, labels: torch.Tensor) -> torch.Tensor:
    """``F.cross_entropy(logits, labels)`` (mean reduction): logits [n, v], labels [n] -> []."""
    n, v = logits.shape
    assert labels.size(0) == n, f"labels size mismatch {labels.size(0)} != {n}"
    losses = torch.zeros([n], dtype=torch.float32, device=logits.device)

    for tile_n, tile_v in hl.tile([n, v], block_size=[None, v]):
        rows = logits[tile_n, tile_v].to(torch.float32)  # [block_n, v]: whole rows

        # log-sum-exp of each row
        max_logits = torch.amax(rows, dim=-1, keepdim=True)
        sum_exp = torch.sum(torch.exp(rows - max_logits), dim=-1, keepdim=True)
        log_sum_exp = max_logits.squeeze(-1) + torch.log(sum_exp.squeeze(-1))

        # the logit at each row's label: a one-hot compare on the class ids
        is_target = tile_v.index[None, :] == labels[tile_n][:, None]
        logits_at_target = torch.where(is_target, rows, 0.0).sum(-1)

        losses[tile_n] = log_sum_exp - logits_at_target

    return losses.mean()


def check(n: int, v: int) -> None:
    logits = torch.randn(n, v, device="cuda", dtype=torch.float32)
    labels = torch.randint(0, v, (n,), device="cuda", dtype=torch.int32)
    torch.testing.assert_close(
        cross_entropy(logits, labels), torch.nn.functional.cross_entropy(logits, labels.long())
    )


def main() -> None:
    check(4096, 1000)


if __name__ == "__main__":
    main()
