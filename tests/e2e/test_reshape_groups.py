"""Reshapes that regroup whole axes of a block (helion-subset.md, "Reshapes"): the element
counts the module checks while it traces, in the Pallas kernel and in the reference alike.

Numerics under every strategy come from samples/pair_views.py and samples/merge_views.py
through test_samples.py and test_reference.py.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest


def _x(shape):
    return jnp.asarray(np.random.default_rng(0).standard_normal(shape), jnp.float32)


@pytest.mark.parametrize("function", ["merge_views", "reference_merge_views"])
def test_merged_axes_must_hold_the_elements_the_split_needs(helionc, function):
    # 3 heads of 32 are 96 elements, not the 128 that `.view(tile_m, 2, -1)` splits in halves
    # of 64: the module's clear error instead of jnp's reshape failure inside the kernel.
    module = helionc.module("merge_views", "merge_views", "b8", (8,))
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    with pytest.raises(ValueError, match=r"merge_views\.py:\d+: x\.size\(1\) \* x\.size\(2\) must be 128: .*; it is 96"):
        getattr(module, function)(_x((16, 3, 32)), **kwargs)


@pytest.mark.parametrize("function", ["pair_views", "reference_pair_views"])
def test_a_split_axis_must_have_the_size_of_its_parts(helionc, function):
    module = helionc.module("pair_views", "pair_views", "b8", (8,))
    kwargs = {"interpret": True} if not function.startswith("reference_") else {}
    with pytest.raises(ValueError, match=r"x\.size\(1\) must be 64: .*; it is 66"):
        getattr(module, function)(_x((16, 66)), **kwargs)
