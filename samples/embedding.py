"""Embedding lookup (Helion's examples/embedding.py): ``out[b, :] = weight[ids[b], :]``.

A gather: each row of the output reads the table row named by an index tensor.
"""

from __future__ import annotations

import torch

import helion
import helion.language as hl


@helion.kernel()
def embedding(x: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
    """``torch.nn.functional.embedding(x, weight)`` for ids ``x`` of shape [batch, seq]."""
    batch, seq = x.size()
    x_flat = x.reshape(-1)
    _, embedding_dim = weight.size()
    out = torch.empty([x_flat.size(0), embedding_dim], dtype=weight.dtype, device=weight.device)
    for tile_b, tile_e in hl.tile([x_flat.size(0), embedding_dim]):
        out[tile_b, tile_e] = weight[x_flat[tile_b], tile_e]
    return out.view(batch, seq, embedding_dim)


def main() -> None:
    num_embeddings, embedding_dim = 16, 64
    emb = torch.nn.Embedding(num_embeddings, embedding_dim).to("cuda")
    x = torch.randint(num_embeddings, [256, 32], device="cuda", dtype=torch.int32)
    torch.testing.assert_close(embedding(x, emb.weight), emb(x))


if __name__ == "__main__":
    main()
