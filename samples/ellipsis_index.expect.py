"""Expectations of samples/ellipsis_index.py: out = x * w + x[0] over a batch of matrices; firsts =
x[..., 0].
"""

from __future__ import annotations

from e2e_support import f64
from expectations import SampleSpec


def ref_ellipsis_index(x, w):
    v = f64(x)
    prod = (v * f64(w)[None, None, :]).astype(x.dtype)  # rounded as the kernel's tile product
    return ((f64(prod) + v[0][None]).astype(x.dtype), x[:, :, 0].copy())


SPEC = SampleSpec(
    name="ellipsis_index",
    kernel="ellipsis_index",
    configs={"b8x128": (8, 128), "b32x256": (32, 256)},
    reference=ref_ellipsis_index,
    extra_shapes=("x=1x1x1:f32,w=1:f32", "x=2x9x130:bf16,w=130:bf16"),
    notes="`...` for leading, no and trailing axes; hl.load and host code too",
)
