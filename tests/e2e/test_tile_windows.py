"""Windows of tile values and literal sizes (helion-subset.md, "Windows of a loaded block"):
what the module refuses while it traces, in the Pallas kernel and in the reference alike.

Numerics under every strategy come from samples/live_row_windows.py and
samples/fixed_row_windows.py through test_samples.py and test_reference.py.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest


def _x(shape):
    return jnp.asarray(np.random.default_rng(0).standard_normal(shape), jnp.float32)


@pytest.mark.parametrize("function", ["fixed_row_windows", "reference_fixed_row_windows"])
def test_a_block_too_short_for_a_constant_window_is_an_error(helionc, function):
    # 5 tokens in blocks of 4: the last block holds one row, the kernel reads rows 1 and 2.
    module = helionc.module("fixed_row_windows", "fixed_row_windows", None)
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    with pytest.raises(ValueError, match=r"fixed_row_windows\.py:\d+: the kernel reads rows up to \d of each block, but a block holds only 1 rows"):
        getattr(module, function)(_x((5, 2, 256)), **kwargs)


@pytest.mark.parametrize("function", ["fixed_row_windows", "reference_fixed_row_windows"])
def test_an_axis_shorter_than_a_constant_window_is_an_error(helionc, function):
    module = helionc.module("fixed_row_windows", "fixed_row_windows", None)
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    with pytest.raises(ValueError, match=r"x\.size\(2\) must be at least 256: .*; it is 200"):
        getattr(module, function)(_x((8, 2, 200)), **kwargs)


@pytest.mark.parametrize("function", ["live_row_windows", "reference_live_row_windows"])
def test_a_literal_size_must_match_the_axis_it_meets(helionc, function):
    # hl.zeros([2, 128]) meets x's axes 1 and 2; with 3 heads jnp would not even broadcast,
    # with 1 it would broadcast silently: both are the module's clear error instead.
    module = helionc.module("live_row_windows", "live_row_windows", "b4", (4,))
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    for heads in (1, 3):
        with pytest.raises(ValueError, match=r"x\.size\(1\) must be 2: .*; it is " + str(heads)):
            getattr(module, function)(_x((8, heads, 128)), **kwargs)


@pytest.mark.parametrize("function", ["row_gate", "reference_row_gate"])
def test_a_whole_axis_broadcasts_against_a_tile_only_at_length_1(helionc, function):
    # scale[tile_m, :] times a [tile_m, tile_n] block: PyTorch broadcasts scale's axis 1 only
    # when it has length 1; any other length is the module's clear error.
    module = helionc.module("row_gate", "row_gate", "b8x128", (8, 128))
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    with pytest.raises(ValueError, match=r"scale\.size\(1\) must be 1: .*tile_n.*; it is 256"):
        getattr(module, function)(_x((16, 256)), _x((256,)), _x((16, 256)), **kwargs)


def test_a_window_stored_into_a_tile_needs_a_block_of_its_size(helionc):
    # samples/row_window_store.py stores 8 rows (`tile_m.begin + hl.arange(8)`) into each block
    # of tile_m: a block of 16 would leave 8 rows of each block unwritten.
    module = helionc.module("row_window_store", "row_window_store", "b16x128", (16, 128))
    with pytest.raises(
        ValueError,
        match=r"row_window_store\.py:\d+: tile_m\.block_size must be 8: .*; choose a config whose"
        r" block is 8, it is 16",
    ):
        module.row_window_store(_x((32, 128)), interpret=True)
    # The reference steps by the only block the kernel's meaning holds for.
    x = _x((20, 256))
    np.testing.assert_allclose(
        np.asarray(module.reference_row_window_store(x)), 2 * np.asarray(x) + 1,
        rtol=1e-6)


def test_a_window_stored_into_a_tile_fixes_the_default_block(helionc):
    # A config without block sizes gets the block the store fixes (8 rows), not the module's
    # default block (which the trace-time check would refuse).
    module = helionc.module("row_window_store", "row_window_store", "unsized", ())
    x = _x((20, 300))
    np.testing.assert_allclose(
        np.asarray(module.row_window_store(x, interpret=True)), 2 * np.asarray(x) + 1, rtol=1e-6)
