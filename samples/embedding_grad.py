"""A scatter-add from an inner loop: the gradient of an embedding lookup, ``grad[ids[i]] +=
dout[i]``, with the rows of ``dout`` streamed by an inner loop over ``k`` inside a loop over
column blocks. Repeated ids all add. helionc keeps ``grad``'s rows whole in the output's block
for the column block, and each inner step adds its rows with a one-hot
(``_scatter(..., add=True)``), under every inner-loop strategy that applies. README, "Atomic
updates"."""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def embedding_grad(dout: torch.Tensor, ids: torch.Tensor, vocab: torch.Tensor) -> torch.Tensor:
    """``grad = zeros_like(vocab)`` with ``grad[ids[i]] += dout[i]`` for every ``i``."""
    k, n = dout.size()
    grad = torch.zeros_like(vocab)
    for tile_n in hl.tile(n):
        for tile_k in hl.tile(k):
            hl.atomic_add(grad, [ids[tile_k], tile_n], dout[tile_k, tile_n])
    return grad


def check(v: int, k: int, n: int) -> None:
    dout = torch.randn([k, n], device="cuda")
    ids = torch.randint(0, v, [k], device="cuda", dtype=torch.int32)
    vocab = torch.empty([v, n], device="cuda")
    want = torch.zeros([v, n], device="cuda").index_add_(0, ids.long(), dout)
    torch.testing.assert_close(embedding_grad(dout, ids, vocab), want)


if __name__ == "__main__":
    check(100, 1000, 256)
