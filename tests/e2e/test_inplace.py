"""The contract for kernels that update their parameters (README, "Kernels that update their
parameters"): the generated function returns the updated arrays, and under
`jax.jit(..., donate_argnums=...)` the donated buffer is reused for the result.

Uses samples/add_inplace.py (`x += y`, `-> None`) and samples/update_and_return.py (returns its
sums and updates `running`).
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np


def _inputs(shape=(16, 256)):
    rng = np.random.default_rng(0)
    return (jnp.asarray(rng.standard_normal(shape), jnp.float32),
            jnp.asarray(rng.standard_normal(shape), jnp.float32))


def test_the_updated_parameter_is_returned_and_the_input_left_alone(helionc):
    module = helionc.module("add_inplace", "add_inplace", None)
    x, y = _inputs()
    before = np.asarray(x)
    got = module.add_inplace(x, y, interpret=True)
    np.testing.assert_allclose(np.asarray(got), before + np.asarray(y), rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(x), before)  # without donation: a copy


def test_donation_aliases_the_parameter_to_the_result(helionc):
    module = helionc.module("add_inplace", "add_inplace", None)
    x, y = _inputs()
    expected = np.asarray(x) + np.asarray(y)
    fn = jax.jit(functools.partial(module.add_inplace, interpret=True), donate_argnums=0)
    assert "tf.aliasing_output = 0" in fn.lower(x, y).as_text()
    np.testing.assert_allclose(np.asarray(fn(x, y)), expected, rtol=1e-6)
    assert x.is_deleted()


def test_results_come_before_the_updated_parameters(helionc):
    module = helionc.module("update_and_return", "row_sums", None)
    x, _ = _inputs((32, 64))
    running = jnp.arange(32, dtype=jnp.float32)
    sums, updated = module.row_sums(x, running, interpret=True)
    np.testing.assert_allclose(np.asarray(sums), np.asarray(x).sum(-1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(np.asarray(updated), np.arange(32) + np.asarray(x).sum(-1),
                               rtol=1e-5, atol=1e-5)


def test_a_kernel_that_updates_and_returns_warns(helionc):
    proc = helionc.run(["samples/update_and_return.py", "-o", "/dev/null"])
    assert proc.returncode == 0, proc.stderr
    assert "[-Win-place-result]" in proc.stderr
    assert "updates `running` in place" in proc.stderr


def test_a_rank_polymorphic_loop_checks_the_shape_it_stores_into(helionc):
    # samples/any_rank_scratch.py: `scratch[tile]` under `hl.tile(x.size())` needs
    # scratch to have x's shape; another shape is an error while JAX traces, never a partial
    # store.
    import pytest

    module = helionc.module("any_rank_scratch", "any_rank_scratch", None)
    x = jnp.ones((8, 128), jnp.float32)
    with pytest.raises(ValueError, match="stores into `scratch`, whose shape"):
        module.any_rank_scratch(x, jnp.zeros((16, 128), jnp.float32), interpret=True)
    out, scratch = module.any_rank_scratch(x, jnp.zeros((8, 128), jnp.float32), interpret=True)
    np.testing.assert_allclose(np.asarray(out), 4.0)
    np.testing.assert_allclose(np.asarray(scratch), 2.0)
