"""Views of a tile's block in groups (`tile.block_size // 2`, README "Decisions worth knowing"):
the module checks while it traces that no group straddles the end of the tile's range (its
length is a multiple of the divisor, in the kernel and in the reference alike) and that the
divisor divides the block a config gives.

Numerics under every strategy come from samples/pair_butterfly.py, group4_mix.py and
row_pair_swap.py through test_samples.py and test_reference.py.
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


@pytest.mark.parametrize("function", ["pair_butterfly", "reference_pair_butterfly"])
def test_an_odd_width_has_no_pairs(helionc, function):
    # d = 7: the last pair would hold the row's last element and one past its end.
    module = helionc.module("pair_butterfly", "pair_butterfly", "b8x128", (8, 128))
    with pytest.raises(
        ValueError,
        match=r"pair_butterfly\.py:\d+: the length of the range of `tile_d` \(d\) must be a "
        r"multiple of 2: .*; the remainder is 1",
    ):
        _call(module, function, _x(16, 7))


def test_a_leading_block_must_hold_whole_pairs(helionc):
    # A leading axis takes any block: 3 rows cannot be viewed as pairs.
    module = helionc.module("row_pair_swap", "row_pair_swap", "b3x8x128", (3, 8, 128))
    with pytest.raises(
        ValueError,
        match=r"row_pair_swap\.py:\d+: tile_h\.block_size must be a multiple of 2: .*, it is 3",
    ):
        _call(module, "row_pair_swap", _x(6, 8, 128))


def test_a_leading_axis_defaults_to_a_block_of_one_group(helionc):
    # The default block of a leading axis is 1, which holds no pair: the module takes 2.
    module = helionc.module("row_pair_swap", "row_pair_swap", None)
    x = _x(6, 3, 5)
    expected = np.asarray(x).reshape(3, 2, 3, 5)[:, ::-1].reshape(6, 3, 5)
    np.testing.assert_array_equal(np.asarray(_call(module, "row_pair_swap", x)), expected)
