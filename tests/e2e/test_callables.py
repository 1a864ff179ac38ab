"""Callable parameters passed at run time: the module checks each call's result
against the type helionc gave it, refuses a callable that a kernel calls while it reads arrays
it closes over, and applies a directly stored call on the host, where such a callable works
(samples/callable_mm.py, samples/callable_epilogue.py)."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from references import EXPECTATION_MODULES

mm_add = EXPECTATION_MODULES["callable_mm"].mm_add
tail_column_index = EXPECTATION_MODULES["callable_mm"].tail_column_index


def _operands():
    x = jnp.asarray(np.random.default_rng(0).standard_normal((16, 256)), jnp.float32)
    y = jnp.asarray(np.random.default_rng(1).standard_normal((256, 128)), jnp.float32)
    return x, y


def test_a_result_of_another_shape_is_a_precise_error(helionc):
    module = helionc.module("callable_mm", "callable_mm", None)
    x, y = _operands()
    summed = lambda acc, a, b: (acc + jnp.dot(a, b, preferred_element_type=jnp.float32)).sum(0)
    message = r"callable_mm\.py:\d+: `mm_func\(\.\.\.\)` returned an array of shape \(128,\)"
    with pytest.raises(ValueError, match=message):
        module.callable_mm(x, y, summed, tail_column_index, interpret=True)
    with pytest.raises(ValueError, match=message):
        module.reference_callable_mm(x, y, summed, tail_column_index)


def test_a_result_of_another_dtype_is_a_precise_error(helionc):
    module = helionc.module("callable_mm", "callable_mm", None)
    x, y = _operands()
    narrowed = lambda acc, a, b: mm_add(acc, a, b).astype(jnp.bfloat16)
    with pytest.raises(ValueError, match=r"dtype bfloat16, but helionc typed the call as .* float32"):
        module.callable_mm(x, y, narrowed, tail_column_index, interpret=True)


def test_a_kernel_cannot_call_a_closure_over_arrays(helionc):
    module = helionc.module("callable_mm", "callable_mm", None)
    x, y = _operands()
    offset = jnp.arange(128, dtype=jnp.float32)
    tail = lambda acc, tiles: acc + offset[None, : acc.shape[1]]
    with pytest.raises(ValueError, match=r"the callable `tail` reads arrays it closes over \(float32\[128\]\)"):
        module.callable_mm(x, y, mm_add, tail, interpret=True)


def test_a_stored_closure_runs_on_the_host_under_jit(helionc):
    """matmul_custom's form: the epilogue's closure is read on the host, also under jax.jit and
    when lowered for a TPU (its `bias[tile[1]]` is an XLA gather there, not in the kernel)."""
    module = helionc.module("callable_epilogue", "callable_epilogue", None)
    x, y = _operands()
    bias = jnp.asarray(np.random.default_rng(2).standard_normal(128), jnp.float32)
    epilogue = lambda acc, tile: acc + bias[tile[1]]
    want = np.asarray(x, np.float64) @ np.asarray(y, np.float64) + np.asarray(bias)[None, :]
    run = jax.jit(lambda a, b: module.callable_epilogue(a, b, epilogue, interpret=True))
    np.testing.assert_allclose(np.asarray(run(x, y)), want, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(np.asarray(module.reference_callable_epilogue(x, y, epilogue)), want,
                               rtol=1e-5, atol=1e-4)
