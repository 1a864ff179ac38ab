"""Sizes computed from other sizes (README "Decisions worth knowing"): where one meets another
size, the module checks while it traces that they are equal, in the Pallas kernel and in the
reference alike, with an error naming both sizes and the value it got.

Numerics under every strategy come from samples/rotary_pairs.py, half_fold.py, foreign_acc.py
and splat_view.py through test_samples.py and test_reference.py.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest


def _x(*shape):
    return jnp.asarray(np.random.default_rng(0).standard_normal(shape), jnp.float32)


def _call(module, function, *args):
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    return getattr(module, function)(*args, **kwargs)


@pytest.mark.parametrize("function", ["rotary_pairs", "reference_rotary_pairs"])
def test_an_odd_width_cannot_be_split_in_halves(helionc, function):
    # d = 7: `.reshape([tile_m, 2, d // 2])` would need 6 elements per row.
    module = helionc.module("rotary_pairs", "rotary_pairs", "b8", (8,))
    with pytest.raises(ValueError, match=r"rotary_pairs\.py:\d+: x\.size\(1\) must be half \* 2: .*; it is 7"):
        _call(module, function, _x(16, 7), _x(16, 3), _x(16, 3))


@pytest.mark.parametrize("function", ["rotary_pairs", "reference_rotary_pairs"])
def test_angles_must_have_the_computed_width(helionc, function):
    # cos and sin of 5 columns meet halves of 4.
    module = helionc.module("rotary_pairs", "rotary_pairs", "b8", (8,))
    with pytest.raises(ValueError, match=r"cos\.size\(1\) must be half: .*; it is 5"):
        _call(module, function, _x(16, 8), _x(16, 5), _x(16, 5))


@pytest.mark.parametrize("function", ["foreign_acc", "reference_foreign_acc"])
def test_an_accumulator_of_another_axis_must_match_the_product(helionc, function):
    # acc is [tile_m, c.size(1)] = 24 wide, the product [tile_m, b.size(1)] = 16 wide.
    module = helionc.module("foreign_acc", "foreign_acc", "b8x128", (8, 128))
    with pytest.raises(ValueError, match=r"b\.size\(1\) must be c\.size\(1\): .*; it is 16"):
        _call(module, function, _x(8, 32), _x(32, 16), _x(8, 24))


@pytest.mark.parametrize("function", ["half_fold", "reference_half_fold"])
def test_a_computed_size_runs_at_the_call_s_width(helionc, function):
    # Both widths, one module: the computed size is evaluated at each trace.
    module = helionc.module("half_fold", "half_fold", "b8", (8,))
    for width in (6, 10):
        x = np.asarray(_x(9, width), np.float64)
        got = np.asarray(_call(module, function, jnp.asarray(x, jnp.float32)))
        half = width // 2
        np.testing.assert_allclose(got, x[:, :half] + x[:, half:] + np.arange(half), rtol=1e-5, atol=1e-5)
