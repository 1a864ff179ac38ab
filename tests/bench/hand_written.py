"""JAX's own hand-written TPU kernels, the yardstick of the kernel profile.

`jax/experimental/pallas/ops/tpu/matmul.py` and `flash_attention.py` from the installed jax,
imported and lowered as they are (nothing copied), at the block sizes of the helionc cases they
are compared with. Each returns (function, argument structs) for mosaic_capture.mosaic_modules.
"""

from __future__ import annotations

import math
import pathlib

import jax
import jax.numpy as jnp
from jax.experimental.pallas.ops.tpu import flash_attention as jax_flash
from jax.experimental.pallas.ops.tpu import matmul as jax_matmul

MATMUL_SOURCE = pathlib.Path(jax_matmul.__file__)
FLASH_SOURCE = pathlib.Path(jax_flash.__file__)


def matmul(m: int, k: int, n: int, block_m: int, block_k: int, block_n: int, dtype=jnp.bfloat16):
    """x [m, k] @ y [k, n] with blocks (block_m, block_n) and block_k (grid m/bm, n/bn, k/bk)."""

    def fn(x, y):
        return jax_matmul.matmul(x, y, block_shape=(block_m, block_n), block_k=block_k)

    return fn, (jax.ShapeDtypeStruct((m, k), dtype), jax.ShapeDtypeStruct((k, n), dtype))


def flash_attention(batch: int, heads: int, seq: int, head_dim: int, block_q: int, block_k: int,
                    causal: bool, dtype=jnp.bfloat16, kv_seq: int | None = None):
    """Forward flash attention over [batch, heads, seq, head_dim] with one key block per grid
    step (block_k_major = block_k), one batch row per step, softmax scale 1/sqrt(d); keys and
    values have `kv_seq` rows (default `seq`)."""
    blocks = jax_flash.BlockSizes(block_q=block_q, block_k_major=block_k, block_k=block_k, block_b=1)
    scale = 1.0 / math.sqrt(head_dim)

    def fn(q, k, v):
        return jax_flash.flash_attention(q, k, v, causal=causal, sm_scale=scale, block_sizes=blocks)

    struct = jax.ShapeDtypeStruct((batch, heads, seq, head_dim), dtype)
    keys = jax.ShapeDtypeStruct((batch, heads, kv_seq or seq, head_dim), dtype)
    return fn, (struct, keys, keys)
