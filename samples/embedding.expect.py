"""Expectations of samples/embedding.py."""

from __future__ import annotations

import numpy as np

from expectations import SampleSpec, indices_below, remember_shape


def ref_embedding(x, weight):
    # exact: a copy of table rows; [batch, seq] ids -> [batch, seq, dim]
    return (np.asarray(weight)[x.astype(np.int64)],)


SPEC = SampleSpec(
    name="embedding",
    kernel="embedding",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_embedding,
    inputs={"weight": remember_shape("weight"), "x": indices_below("weight", 0)},
    # tables over 2048 rows copy their rows by DMA, smaller ones use the one-hot
    # (test_gather_dma.py forces each path on the others)
    extra_shapes=("weight=1x1:f32,x=1x1:i32", "weight=5x130:bf16,x=2x9:i32", "weight=40x130:f16,x=3x9:i32"),
)
