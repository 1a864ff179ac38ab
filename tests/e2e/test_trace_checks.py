"""Shapes that only the call decides, checked while JAX traces: a carried value whose
axes the body states differently (samples/column_gemv.py, samples/shifted_state.py) runs when
the lengths agree and is a precise error naming both sizes when they do not, never a result
computed on mismatched blocks."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest


def test_a_unit_axis_carried_against_a_whole_axis_must_be_one(helionc):
    module = helionc.module("column_gemv", "column_gemv", None)
    w = jnp.ones((8, 128), jnp.float32)
    np.testing.assert_allclose(np.asarray(module.column_gemv(w, jnp.ones((128, 1)), interpret=True)), 128.0)
    with pytest.raises(ValueError, match=r"v\.size\(1\) must be 1.*it is 2"):
        module.column_gemv(w, jnp.ones((128, 2), jnp.float32), interpret=True)


def test_whole_axes_of_two_tensors_carried_must_agree(helionc):
    module = helionc.module("shifted_state", "shifted_state", None)
    x = jnp.ones((4, 2, 128), jnp.float32)
    np.testing.assert_allclose(np.asarray(module.shifted_state(x, jnp.ones((2, 128)), interpret=True)), 2.0)
    with pytest.raises(ValueError, match=r"init\.size\(0\) must equal x\.size\(1\).*it is 3"):
        module.shifted_state(x, jnp.ones((3, 128), jnp.float32), interpret=True)
