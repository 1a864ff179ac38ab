"""Orderings of tile values (README "Orderings and joins"): what the module refuses while it
traces. Numerics (ties, bf16, partial blocks) come from samples/row_sorts.py through
test_samples.py and test_reference.py; NaN and infinities here.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest


def _rows(shape):
    return np.random.default_rng(0).standard_normal(shape).astype(np.float32)


def test_an_axis_of_any_length_sorts(helionc):
    # The ranks and the placement are loops over the axis (a round per element), so the
    # program stays one round long: 1100 elements, past the 1024 of the unrolled helper the
    # sort once was, sort like any other axis.
    module = helionc.module("row_sorts", "row_sorts", "b8", (8,))
    x = _rows((8, 1100))
    down, order, low, low_at = module.row_sorts(jnp.asarray(x), interpret=True)
    np.testing.assert_array_equal(np.asarray(down), -np.sort(-x, axis=1))
    np.testing.assert_array_equal(np.asarray(order), np.argsort(x, axis=1, kind="stable"))
    np.testing.assert_array_equal(np.asarray(low), np.sort(x, axis=1)[:, :4])
    np.testing.assert_array_equal(np.asarray(low_at), np.argsort(x, axis=1, kind="stable")[:, :4])


@pytest.mark.parametrize("function", ["row_sorts", "reference_row_sorts"])
def test_a_top_k_beyond_the_axis_is_an_error(helionc, function):
    module = helionc.module("row_sorts", "row_sorts", "b8", (8,))
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    with pytest.raises(ValueError, match=r"top-4 of an axis of only 3 elements"):
        getattr(module, function)(jnp.asarray(_rows((8, 3))), **kwargs)


@pytest.mark.parametrize("function", ["row_sorts", "reference_row_sorts"])
def test_nan_is_the_largest_and_equal_values_keep_their_order(helionc, function):
    module = helionc.module("row_sorts", "row_sorts", "b8", (8,))
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    x = _rows((11, 20))
    x[0, [3, 7]] = np.nan
    x[1, [2, 9]] = 0.5
    x[2, :] = 1.0
    x[3, 5], x[3, 6] = -np.inf, np.inf
    down, order, low, low_at = getattr(module, function)(jnp.asarray(x), **kwargs)
    # torch.sort's order: NaN above every number, then by value, ties by position.
    nan = np.isnan(x)
    key = np.where(nan, 0, x)
    position = np.broadcast_to(np.arange(x.shape[1]), x.shape)
    ascending = np.lexsort((position, key, nan), axis=-1)
    descending = np.lexsort((position, -key, ~nan), axis=-1)
    np.testing.assert_array_equal(np.asarray(down), np.take_along_axis(x, descending, -1))
    np.testing.assert_array_equal(np.asarray(order), ascending)
    np.testing.assert_array_equal(np.asarray(low), np.take_along_axis(x, ascending[:, :4], -1))
    np.testing.assert_array_equal(np.asarray(low_at), ascending[:, :4])
