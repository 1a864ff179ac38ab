"""Arrays read only as scalars are passed whole in SMEM (1 MiB): too large a one is a clear error
while JAX traces the generated module, never a Mosaic failure on the TPU.

Uses samples/first_column_scale.py, whose `scale[0]` makes `scale` an SMEM operand of any length.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

SMEM_WORDS = (1 << 20) // 4  # 32-bit words


@pytest.fixture(scope="module")
def first_column_scale(helionc):
    return helionc.module("first_column_scale", "first_column_scale", None)


def _x():
    return jnp.asarray(np.random.default_rng(0).uniform(0.5, 2.0, size=(16, 256)), jnp.float32)


def test_an_smem_array_of_one_mib_runs_and_lowers(first_column_scale, tpu_lower):
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
    # Narrower dtypes widen to 32-bit words in SMEM: one word too many is too many for all.
    scale = jnp.ones((SMEM_WORDS + 1,), dtype)
    message = (
        rf"\(shape \({SMEM_WORDS + 1},\), {jnp.dtype(dtype).name}\) is read only as scalars, so it "
        rf"is passed whole in SMEM, where it takes {4 * (SMEM_WORDS + 1)} bytes as 32-bit words: "
        r"more than SMEM's 1048576 \(1 MiB\)"
    )
    with pytest.raises(ValueError, match=message):
        first_column_scale.first_column_scale(_x(), scale, interpret=True)
    with pytest.raises(ValueError, match=message):
        jax.eval_shape(
            lambda a, b: first_column_scale.first_column_scale(a, b, interpret=False),
            jax.ShapeDtypeStruct((16, 256), jnp.float32),
            jax.ShapeDtypeStruct(scale.shape, scale.dtype),
        )

