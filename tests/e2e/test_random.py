"""`hl.rand`'s generator against a published known answer, in all three implementations: the
numpy one the sample references use, the int32 one of the Pallas modules
(templates/helper_philox.py.tmpl) and the uint32 one of the references
(templates/reference_prelude.py.tmpl); and the three agreeing on counters and keys that
exercise every bit (the samples `dropout` and `random_bins` check the kernels themselves)."""

from __future__ import annotations

import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module
from expectations import philox_words

# Random123's known-answer vector for Philox4x32-10 with a zero counter and a zero key.
ZERO_COUNTER_ZERO_KEY = (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)


@pytest.fixture(scope="module")
def module(helionc):
    path = helionc.compile("dropout", "dropout", "philox", (8, 128))
    return import_module(path, "helionc_random.dropout")


@pytest.fixture(scope="module")
def int_module(helionc):
    path = helionc.compile("random_bins", "random_bins", "philox", (128,))
    return import_module(path, "helionc_random.random_bins")


def test_numpy_philox_matches_the_published_vector():
    words = philox_words(np.zeros(1, np.int64), 0)
    assert tuple(int(w[0]) for w in words) == ZERO_COUNTER_ZERO_KEY


@pytest.mark.parametrize("seed", [0, 1, 0xFFFFFFFF, 2**32, 0x123456789ABCDEF, -1, -(2**63)])
def test_module_generators_match_numpy(module, seed):
    counters = np.concatenate([np.arange(0, 4096), np.array([2**31 - 1, 2**31 - 2, 65535, 65536])])
    counters = counters.astype(np.int32)
    want = philox_words(counters, seed)[0].astype(np.uint32)
    kernel_bits = np.asarray(module._philox_word(jnp.asarray(counters), seed)).view(np.uint32)
    reference_bits = np.asarray(module._ref_philox_word(jnp.asarray(counters), seed))
    np.testing.assert_array_equal(kernel_bits, want)
    np.testing.assert_array_equal(reference_bits, want)


def test_uniform_and_integer_conversions(module, int_module):
    counters = jnp.arange(1 << 16, dtype=jnp.int32)
    draws = np.asarray(module._rand(counters, 5))
    assert draws.dtype == np.float32 and draws.min() >= 0.0 and draws.max() <= 1.0
    assert abs(draws.mean() - 0.5) < 0.01
    np.testing.assert_array_equal(draws, np.asarray(module._ref_rand(counters, 5)))
    ints = np.asarray(int_module._randint(counters, 5, -5, 17))
    assert ints.min() == -5 and ints.max() == 16
    np.testing.assert_array_equal(ints, np.asarray(int_module._ref_randint(counters, 5, -5, 17)))
