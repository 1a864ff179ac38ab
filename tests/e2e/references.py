"""What each sample must compute: independent numpy references, configs, inputs, extra shapes.

The references are written from the kernels' meaning (and PyTorch's dtype rules), not from
anything helionc prints: they compute in float64 and round once to the result dtype that PyTorch
would give. Shapes come from the sample's `.shapes` sidecar plus `extra_shapes` here (small or
odd shapes that exercise full-dimension blocks and partial edge tiles).

Block sizes (`configs`): one entry per tunable block size in order of first appearance in the
kernel (Helion's numbering). For `hl.tile(x.size())`, whose rank is only known when the kernel is
traced, the entries are matched to the innermost dimensions, right-aligned; missing leading
entries default to 1 and surplus leading entries are unused.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Callable

import numpy as np

from e2e_support import SAMPLES_DIR, BFLOAT16, Call, f64, parse_call, read_shapes_file, torch_promote, uniform

_erf = np.vectorize(math.erf, otypes=[np.float64])


@dataclasses.dataclass(frozen=True)
class SampleSpec:
    name: str  # samples/<name>.py
    kernel: str  # the @helion.kernel function (and the generated public function)
    configs: dict[str, tuple[int, ...]]  # config id -> default.block_sizes
    reference: Callable[..., tuple[np.ndarray, ...]]  # (**tensors, **scalars) -> outputs
    scalars: tuple[dict, ...] = ({},)  # scalar-argument variants, cycled over the shapes
    inputs: dict = dataclasses.field(default_factory=dict)  # tensor name -> generator
    extra_shapes: tuple[str, ...] = ()
    tolerance: dict = dataclasses.field(default_factory=dict)  # dtype -> (rtol, atol) overrides
    notes: str = ""


# --- add.py: broadcast_tensors + promote_types + hl.tile(out.size()) -------------------------


def ref_add(x, y):
    dtype = torch_promote(x.dtype, y.dtype)
    a, b = np.broadcast_arrays(f64(x), f64(y))
    return ((a + b).astype(dtype),)


# --- add_scaled.py: float scalars with defaults ----------------------------------------------


def ref_add_scaled(x, y, alpha, beta):
    # A Python float does not widen a tensor: the result keeps x's dtype.
    return ((alpha * f64(x) + beta * f64(y)).astype(x.dtype),)


# --- silu.py: 1-D hl.tile(n) -----------------------------------------------------------------


def ref_silu(x):
    v = f64(x)
    return ((v / (1.0 + np.exp(-v))).astype(x.dtype),)


# --- bias_gelu.py: x[tile_m, tile_n] + bias[tile_n], tanh GELU ---------------------------------


def ref_bias_gelu(x, bias):
    v = f64(x) + f64(bias)[None, :]
    gelu = 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v**3)))
    return (gelu.astype(torch_promote(x.dtype, bias.dtype)),)


# --- mixed_dtype.py: bf16 -> f32 -> bf16 GEGLU ------------------------------------------------


def ref_geglu(x, y, scale):
    a = f64(x)
    gelu = 0.5 * a * (1.0 + _erf(a / math.sqrt(2.0)))
    return ((scale * gelu * f64(y)).astype(BFLOAT16),)


# --- batchnorm.py: hl.grid over the batch, stat[None, :] ---------------------------------------


def ref_batchnorm(x, mean, var, weight, bias, eps):
    normed = (f64(x) - f64(mean)) / np.sqrt(f64(var) + eps) * f64(weight) + f64(bias)
    # out = torch.empty_like(x): whatever the statistics' dtype, the store casts to x's dtype.
    return (normed.astype(x.dtype),)


# --- clip_flags.py: two outputs, torch.where, comparisons, an int parameter --------------------


def ref_clip_flags(x, lo, hi, label):
    v = f64(x)
    clipped = np.minimum(np.maximum(v, lo), hi).astype(x.dtype)
    flags = np.where(v > hi, -label, np.where(v < lo, label, 0)).astype(np.int32)
    return clipped, flags


# --- softplus.py: a bool parameter that selects a formula --------------------------------------


def ref_softplus(x, beta, stable):
    # Both formulas are the same function; only their rounding differs.
    return ((np.logaddexp(0.0, beta * f64(x)) / beta).astype(x.dtype),)


# Thresholds and scalars below are exactly representable in bfloat16, so comparisons against
# them cannot flip between a kernel that rounds the scalar to the tensor's dtype and the float64
# reference.
SAMPLES: tuple[SampleSpec, ...] = (
    SampleSpec(
        name="add",
        kernel="add",
        # hl.tile(out.size()): right-aligned; rank 1 uses the last entry only.
        configs={"b8x128": (8, 128), "b16x512": (16, 512), "b2x8x256": (2, 8, 256)},
        reference=ref_add,
        extra_shapes=(
            "x=7x5:f32,y=5:f32",
            "x=100:bf16,y=100:bf16",
            "x=2x3x4:f32,y=1:f32",
            "x=2x3x16x256:f32,y=256:f32",
            "x=64x256:bf16,y=64x256:f16",
        ),
    ),
    SampleSpec(
        name="add_scaled",
        kernel="add_scaled",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_add_scaled,
        scalars=({}, {"alpha": 2.0, "beta": -1.5}, {"alpha": -0.25}),
        extra_shapes=("x=7x5:f32,y=7x5:f32", "x=3:bf16,y=3:bf16", "x=2x2x8x256:f32,y=2x2x8x256:f32"),
    ),
    SampleSpec(
        name="silu",
        kernel="silu",
        configs={"b512": (512,), "b4096": (4096,)},
        reference=ref_silu,
        extra_shapes=("x=1:f32", "x=129:bf16"),
    ),
    SampleSpec(
        name="bias_gelu",
        kernel="bias_gelu",
        configs={"b8x128": (8, 128), "b64x256": (64, 256)},
        reference=ref_bias_gelu,
        extra_shapes=("x=7x5:f32,bias=5:f32", "x=1x1000:bf16,bias=1000:bf16"),
        # bf16 end to end: about ten roundings between x and the result
        tolerance={BFLOAT16: (3e-2, 3e-2)},
    ),
    SampleSpec(
        name="mixed_dtype",
        kernel="geglu",
        configs={"b16x128": (16, 128), "b32x512": (32, 512)},
        reference=ref_geglu,
        scalars=({}, {"scale": 0.125}),
        extra_shapes=("x=3x7:bf16,y=3x7:bf16",),
    ),
    SampleSpec(
        name="batchnorm",
        kernel="batchnorm",
        # hl.grid only: the kernel has no tunable block size, so the one explicit config is
        # empty (the no-config default is tested separately).
        configs={"none": ()},
        reference=ref_batchnorm,
        scalars=({}, {"eps": 1e-3}),
        inputs={"var": uniform(0.5, 2.0)},
        extra_shapes=(
            "x=1x1x1:f32,mean=1:f32,var=1:f32,weight=1:f32,bias=1:f32",
            "x=2x8x128:f32,mean=128:f32,var=128:f32,weight=128:f32,bias=128:f32",
        ),
        # bf16 statistics: x - mean, * inv_std, * weight, + bias each round to bf16
        tolerance={BFLOAT16: (3e-2, 5e-2)},
    ),
    SampleSpec(
        name="clip_flags",
        kernel="clip_flags",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_clip_flags,
        scalars=({}, {"lo": -1.0, "hi": 0.25, "label": 7}),
        extra_shapes=("x=1x1:f32", "x=9x1025:f32"),
    ),
    SampleSpec(
        name="softplus",
        kernel="softplus",
        configs={"b8x128": (8, 128), "b16x1024": (16, 1024)},
        reference=ref_softplus,
        scalars=({}, {"beta": 2.0}, {"stable": False}, {"beta": 0.5, "stable": False}),
        extra_shapes=("x=5:bf16", "x=2x3x4:f32", "x=2x3x8x300:bf16"),
    ),
)

SAMPLES_BY_NAME = {s.name: s for s in SAMPLES}


def calls_of(spec: SampleSpec) -> list[Call]:
    """The sidecar's calls, then the extra test-only shapes."""
    return read_shapes_file(SAMPLES_DIR / f"{spec.name}.shapes") + [parse_call(s) for s in spec.extra_shapes]
