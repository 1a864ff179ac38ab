"""Expectations of samples/random_bins.py."""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, philox_signed


def ref_randint(counters, seed, low, high):
    signed = philox_signed(counters, seed)
    return (low + np.abs(signed) % (high - low)).astype(np.int32)


def ref_random_bins(x, seed=1):
    bins = ref_randint(np.arange(x.shape[0]), seed, -5, 17)
    return (bins, (f64(x) + bins).astype(x.dtype))


SPEC = SampleSpec(
    name="random_bins",
    kernel="random_bins",
    configs={"b128": (128,), "b1024": (1024,)},
    reference=ref_random_bins,
    scalars=({}, {"seed": 12345}, {"seed": 2**33 + 1}),
    extra_shapes=("x=1:f32", "x=129:f32"),
)
