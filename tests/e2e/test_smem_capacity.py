"""Arrays read only as scalars are passed whole in SMEM: too large a one is a clear error while JAX
traces the generated module, never a Mosaic failure on the TPU. SMEM is 1 MiB, of which the
compiler keeps some for itself (the target's `smem_reserved_bytes`): the largest array the module
accepts is the largest the compiler accepts.

Uses samples/first_column_scale.py, whose `scale[0]` makes `scale` an SMEM operand of any length.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

SMEM_CAPACITY = (1 << 20) - 4096  # bytes for a kernel's operands (configs/targets/*.yaml)
SMEM_WORDS = SMEM_CAPACITY // 4  # 32-bit words; a multiple of 128, so untiled


@pytest.fixture(scope="module")
def first_column_scale(helionc):
    return helionc.module("first_column_scale", "first_column_scale", None)


def _x():
    return jnp.asarray(np.random.default_rng(0).uniform(0.5, 2.0, size=(16, 256)), jnp.float32)


def test_the_largest_smem_array_runs_and_lowers(first_column_scale, tpu_lower):
    x = _x()
    scale = jnp.full((SMEM_WORDS,), 2.0, jnp.float32)
    got = first_column_scale.first_column_scale(x, scale, interpret=True)
    np.testing.assert_allclose(np.asarray(got), np.asarray(x / x[:, :1] * 2.0), rtol=1e-6)
    text = tpu_lower(
        lambda a, b: first_column_scale.first_column_scale(a, b, interpret=False),
        jax.ShapeDtypeStruct(x.shape, x.dtype),
        jax.ShapeDtypeStruct(scale.shape, scale.dtype),
    )
    assert "tpu_custom_call" in text


@pytest.mark.parametrize("dtype", [jnp.float32, jnp.bfloat16, jnp.int8])
def test_an_smem_array_over_one_mib_is_a_trace_time_error(first_column_scale, dtype):
    # Narrower dtypes widen to 32-bit words in SMEM: one word too many is too many for all (it
    # takes a row of 128 more words, in whole KiB).
    scale = jnp.ones((SMEM_WORDS + 1,), dtype)
    message = (
        rf"\(shape \({SMEM_WORDS + 1},\), {jnp.dtype(dtype).name}\) is read only as scalars, so it "
        rf"is passed whole in SMEM, where it takes {SMEM_CAPACITY + 1024} bytes as 32-bit words in "
        rf"SMEM's tiled layout: more than the {SMEM_CAPACITY} bytes SMEM holds for a kernel's "
        r"operands"
    )
    with pytest.raises(ValueError, match=message):
        first_column_scale.first_column_scale(_x(), scale, interpret=True)
    with pytest.raises(ValueError, match=message):
        jax.eval_shape(
            lambda a, b: first_column_scale.first_column_scale(a, b, interpret=False),
            jax.ShapeDtypeStruct((16, 256), jnp.float32),
            jax.ShapeDtypeStruct(scale.shape, scale.dtype),
        )

