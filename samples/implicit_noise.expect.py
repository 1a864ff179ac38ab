"""Expectations of samples/implicit_noise.py: the first torch.rand* call of the kernel has seed 0,
the second seed 1; counters are positions in [m, n]; rand_like of a bf16 row is rounded to bf16
before adding.
"""

from __future__ import annotations

import numpy as np

from e2e_support import f64
from expectations import SampleSpec, philox_words, ref_rand


def ref_implicit_noise(x):
    m, n = x.shape
    counters = np.arange(m * n).reshape(m, n)
    noise = ref_rand(counters, 0).astype(x.dtype)
    noisy = (f64(x) + f64(noise)).astype(x.dtype)
    mask = (ref_rand(counters, 1) > 0.5).astype(np.float32)
    normal = (f64(x.astype(np.float32)) + f64(ref_randn(counters, 2))).astype(np.float32)
    return (noisy, mask, normal)


def ref_randn(counters, seed):
    # torch.randn_like as Helion draws it: Box-Muller of Philox's first two words as uniforms
    words = philox_words(counters, seed)
    u1, u2 = (f64(uniform_of_word(w)) for w in words[:2])
    return np.sqrt(-2.0 * np.log(np.maximum(u1, np.float32(1e-7)))) * np.cos(2 * np.pi * u2)


def uniform_of_word(word):
    signed = word.astype(np.int64)
    signed = np.where(signed >= 2**31, signed - 2**32, signed)
    magnitude = np.where(signed < 0, -signed - 1, signed)
    return magnitude.astype(np.float32) * np.float32(4.6566127342e-10)


SPEC = SampleSpec(
    name="implicit_noise",
    kernel="implicit_noise",
    configs={"b8": (8,), "b32": (32,)},
    reference=ref_implicit_noise,
    extra_shapes=("x=1x1:f32", "x=9x7:f32"),
)
