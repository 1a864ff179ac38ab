"""Joined axes and top-k widths computed from sizes (README "Orderings and joins"): the
trace-time checks of a computed `F.pad` width and of a host-int `k`, in the Pallas kernel and,
where the reference checks too, in `reference_<kernel>`.

Numerics come from samples/wide_joins.py and row_topk.py through test_samples.py and
test_reference.py.
"""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest


def _x(*shape):
    return jnp.asarray(np.random.default_rng(0).standard_normal(shape), jnp.float32)


def _call(module, function, *args, **kwargs):
    if not function.startswith("reference_"):
        kwargs["interpret"] = True
    return getattr(module, function)(*args, **kwargs)


@pytest.mark.parametrize("function", ["wide_joins", "reference_wide_joins"])
def test_a_negative_pad_width_is_refused_at_the_call(helionc, function):
    module = helionc.module("wide_joins", "wide_joins", "b8", (8,))
    with pytest.raises(ValueError, match=r"wide_joins\.py:\d+: the `torch\.nn\.functional\.pad` "
                       r"width spare must be at least 0 .*; it is -2"):
        _call(module, function, _x(16, 8), _x(16, 4), spare=-2)


@pytest.mark.parametrize("function", ["row_topk", "reference_row_topk"])
def test_a_k_beyond_the_row_is_refused_at_the_call(helionc, function):
    module = helionc.module("row_topk", "row_topk", "b8", (8,))
    with pytest.raises(ValueError, match=r"top-20 of an axis of only 16 elements"):
        _call(module, function, _x(8, 16), k=20)


def test_a_k_below_one_is_refused_at_the_call(helionc):
    # The reference returns torch's empty result for k = 0; a kernel cannot make a block of 0:
    # the launch's check of empty axes refuses the [8, 0] outputs first (_sort_last's own
    # `k < 1` check stands behind it).
    module = helionc.module("row_topk", "row_topk", "b8", (8,))
    with pytest.raises(ValueError, match=r"row_topk.py:\d+\): an inner loop or a whole axis of "
                       r"length 0 is not supported yet|top-0: `k` must be at least 1"):
        _call(module, "row_topk", _x(8, 16), k=0)


@pytest.mark.parametrize("function", ["row_topk", "reference_row_topk"])
def test_one_module_runs_each_k(helionc, function):
    module = helionc.module("row_topk", "row_topk", "b8", (8,))
    x = _x(9, 12)
    for k in (2, 5):
        top, top_at, _ = _call(module, function, x, k=k)
        want = np.argsort(-np.asarray(x, np.float64), axis=1, kind="stable")[:, :k]
        np.testing.assert_array_equal(np.asarray(top_at), want)
        np.testing.assert_array_equal(np.asarray(top), np.take_along_axis(np.asarray(x), want, 1))
