"""What the samples' expectation files (samples/<name>.expect.py) share: SampleSpec, the loop
strategies, tolerances, input generators and the reference helpers that several samples use.

An expectation file holds one sample's numpy reference and its SampleSpec, exported as `SPEC`;
references.py loads them all (SAMPLES). A helper that one sample alone uses lives in that
sample's file; one that several samples use lives here.

The references are written from the kernels' meaning (and PyTorch's dtype rules), not from
anything helionc prints: they compute in float64 and round once to the result dtype that PyTorch
would give. 16-bit inputs: PyTorch accumulates reductions of bf16 in float32 and rounds once
(`torch.sum`, `torch.mean`, `F.softmax`, `F.log_softmax`); kernels that widen with
`.to(torch.float32)` compute in float32. Both agree with "float64, then round once" within the
tolerances. Thresholds and scalars that the specs pass are exactly representable in bfloat16, so
comparisons against them cannot flip between a kernel that rounds the scalar to the tensor's
dtype and the float64 reference.

Shapes come from the sample's `.shapes` sidecar plus the spec's `extra_shapes` (small or odd
shapes that exercise full-dimension blocks and partial edge tiles).

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

from e2e_support import BFLOAT16, f64, normal, torch_promote

# `pallas_loop_type` values (helion-subset.md §6, pallas-target.md §5).
LOOP_STRATEGIES = ("unroll", "grid", "emit_pipeline", "fori_loop")
# Kernels whose body holds a `for ... in hl.tile(...)` over a dimension (the K loop of a matmul,
# the key loop of flash attention, the passes of a two-pass softmax) run with every
# `pallas_loop_type` strategy that applies (SampleSpec.loop_types); partial last tiles of the
# looped dimension (padding, NaN in the interpreter) must never reach a sum, a maximum or a
# product. Kernels with one inner loop usually test each strategy alone:
ALL_STRATEGIES = tuple((strategy,) for strategy in LOOP_STRATEGIES)


@dataclasses.dataclass(frozen=True)
class Variant:
    """One compiled config of a sample: block sizes and, for kernels with inner loops, one
    `pallas_loop_type` strategy per inner loop (in order of appearance)."""

    block_sizes: tuple[int, ...]
    loop_types: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class SampleSpec:
    """What the tests expect of one sample: its kernel, configs, calls, inputs, reference and
    tolerances (tests/e2e/README.md)."""

    name: str  # samples/<name>.py
    kernel: str  # the @helion.kernel function (and the generated public function)
    configs: dict[str, tuple[int, ...]]  # config id -> default.block_sizes
    reference: Callable[..., tuple[np.ndarray, ...]]  # (**tensors, **scalars) -> outputs
    scalars: tuple[dict, ...] = ({},)  # scalar-argument variants, cycled over the shapes
    inputs: dict = dataclasses.field(default_factory=dict)  # tensor name -> generator
    extra_shapes: tuple[str, ...] = ()
    tolerance: dict = dataclasses.field(default_factory=dict)  # dtype -> (rtol, atol) overrides
    notes: str = ""
    # Kernels with inner (nested) tile loops: the `pallas_loop_type` combinations to test, one
    # strategy name per inner loop of the kernel in order of appearance. Every block config runs
    # with every combination (config ids `<config>-<strategy>[-<strategy>...]`).
    loop_types: tuple[tuple[str, ...], ...] = ()
    # Combinations the compiler must refuse with a reason (a strategy that does not apply).
    refused_loop_types: tuple[tuple[str, ...], ...] = ()
    # The dimensions inner loops tile, or outer loops where their blocks do not land on the first
    # tensor's axes right-aligned: (index into block_sizes, tensor name, axis) each; the coverage
    # test asks for a runnable call whose extent there the block does not divide.
    inner_dims: tuple[tuple[int, str, int], ...] = ()
    # The dtypes the calls of a sample with inner loops must include (its coverage test): float32
    # and bfloat16 unless the kernel is about other dtypes.
    dtypes: tuple[str, ...] = ("float32", "bfloat16")
    # The kernel returns a tuple even of one tensor (`return (out,)`): the module must too.
    returns_tuple: bool = False
    # The call the TPU simulator tests (interpret="tpu", the DMA race test) run, when not the
    # smallest one of at least 1000 elements. The simulator costs about 10-50 ms per grid step,
    # so kernels with many steps on that call (attention's heads x query blocks) name a call
    # with few steps that still has partial blocks and several inner steps. And jax 0.10.2's
    # simulator fails to lower an aliased output whose blocks do not divide it (an MLIR
    # verifier error; plain interpret mode and TPU lowering are fine), so such kernels run there
    # on a dividing call.
    simulator_call: str = ""
    # Loop bounds read from tensors: the module's reference slices with Python ints read from
    # them, so it runs eagerly only (not under jax.jit).
    eager_reference: bool = False
    # `.item()` values the host code needs concretely (an output's size): the module runs
    # eagerly only; under jax.jit and TPU export it raises its precise error (test_host_values).
    host_values: bool = False
    # No `hl.tile`/`hl.grid` loop: the module runs host jnp code alone, so its TPU export holds
    # no Mosaic kernel (and must hold none: a launch there would be one the source never asked for).
    host_only: bool = False

    def variants(self) -> dict[str, Variant]:
        """Config id -> Variant: every block config x every loop-type combination. Samples
        without inner loops keep their plain config ids."""
        if not self.loop_types:
            return {cid: Variant(tuple(sizes)) for cid, sizes in self.configs.items()}
        return {
            f"{cid}-{'-'.join(types)}": Variant(tuple(sizes), tuple(types))
            for cid, sizes in self.configs.items()
            for types in self.loop_types
        }


# ---------------------------------------------------------------------------------------------
# tolerances (dtype -> (rtol, atol) overrides of e2e_support.TOLERANCES)

# Softmax outputs are ~1/n, so bf16's default atol (2e-2) would accept anything; the errors are
# relative instead: eager-bf16 rounding of `x - max` (half an ulp of up to 8 is 0.016 in the
# exponent), of exp, the sum and the quotient add up to under 3% (emulated in
# pending/test_pending_references.py).
SOFTMAX_TOLERANCE = {BFLOAT16: (3e-2, 1e-4)}
# An f32 sum of up to 4096 N(0, 1) terms: its rounding error reaches ~5e-4 summed in order
# (measured), ~3e-5 as a tree, for sums of size ~sqrt(n).
SUM_TOLERANCE = {np.dtype(np.float32): (1e-5, 1e-3)}
# Products accumulate in float32 (float32 operands at full precision) and round once to the
# result dtype, which agrees with "float64, then round once" within the tolerances; float32
# results get atol 1e-4: a float32 sum of up to 512 products of order-1 values.
PRODUCT_TOLERANCE = {np.dtype(np.float32): (1e-5, 1e-4)}


# ---------------------------------------------------------------------------------------------
# input generators
#
# Index inputs (cross-entropy labels, embedding ids) must lie in [0, size of another tensor's
# axis). A generator sees only its own tensor's shape, so `remember_shape` notes the shape of
# the table tensor and the index generators read it (`shape_seen`); the table tensor must come
# first on the `.shapes` line (make_inputs generates tensors in the line's order).

_shapes_seen: dict[str, tuple[int, ...]] = {}


def remember_shape(name: str, make=normal):
    """A generator for tensor `name` that also records its shape for the index generators
    (`indices_below`, `shape_seen`)."""

    def generate(rng, shape, dtype):
        _shapes_seen[name] = tuple(shape)
        return make(rng, shape, dtype)

    return generate


def shape_seen(name: str, what: str, keep: bool = False) -> tuple[int, ...]:
    """The shape `remember_shape(name)` recorded earlier in the same call, for the generator of
    `what`: taken, so that a later call never reads it, unless `keep` (other tensors of the call
    read it too)."""
    shape = _shapes_seen.get(name) if keep else _shapes_seen.pop(name, None)
    assert shape is not None, f"the shapes line must list `{name}` before the {what}"
    return shape


def indices_below(name: str, axis: int):
    """Integers uniform in [0, shape_of(name)[axis]), `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "index tensor")
        return rng.integers(0, bound[axis], size=shape).astype(dtype)

    return generate


def distinct_indices_below(name: str, axis: int):
    """Distinct integers in [0, shape_of(name)[axis]) in random order (a scatter's rows, so
    that no two stores meet), `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "index tensor")
        return rng.permutation(bound[axis])[: shape[0]].astype(dtype)

    return generate


def segment_offsets(name: str, axis: int):
    """Sorted int offsets from 0 to shape_of(name)[axis] (segments of a jagged array), `name`
    generated earlier in the same call. Besides cuts drawn at random (inside blocks), one cut
    lies on a 16-row boundary, two are equal (an empty segment) and, with four cuts or more,
    the last segment is empty at the array's end (its start past the last block when the
    blocks divide the rows)."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "offsets")
        rows = bound[axis]
        cuts = sorted(int(c) for c in rng.integers(0, rows + 1, size=shape[0] - 2))
        if len(cuts) >= 1:
            cuts[0] = cuts[0] // 16 * 16
        if len(cuts) >= 3:
            cuts[2] = cuts[1]
        if len(cuts) >= 4:
            cuts[-1] = rows
        return np.array([0] + sorted(cuts) + [rows]).astype(dtype)

    return generate


def lengths_below(name: str, axis: int):
    """Int lengths in [0, shape_of(name)[axis]], `name` generated earlier in the same call:
    0 and the whole axis first, then lengths drawn at random."""

    def generate(rng, shape, dtype):
        bound = shape_seen(name, "lengths")
        rows = bound[axis]
        lengths = rng.integers(0, rows + 1, size=shape)
        lengths.flat[:2] = [0, rows][:lengths.size]
        return lengths.astype(dtype)

    return generate


# ---------------------------------------------------------------------------------------------
# references that several samples share


def softmax64(v: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def log_softmax64(v: np.ndarray, axis: int = -1) -> np.ndarray:
    shifted = v - v.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def ref_softmax(x):
    # softmax, softmax_decomposed, softmax_3d, softmax_two_pass: over the last axis; keeps x's dtype.
    return (softmax64(f64(x)).astype(x.dtype),)


def layer_norm64(x, weight, bias, eps):
    v = f64(x)
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)  # biased, as F.layer_norm
    rstd = 1.0 / np.sqrt(var + eps)
    out = (v - mean) * rstd * f64(weight)
    if bias is not None:
        out = out + f64(bias)
    return out, mean[..., 0], rstd[..., 0]


def cross_entropy_losses64(logits, labels):
    v = f64(logits)
    rows = np.arange(v.shape[0])
    return -log_softmax64(v)[rows, labels.astype(np.int64)]


def ref_matmul(x, y):
    # matmul, matmul_whole_k: torch.matmul of one dtype keeps it (the epilogue default is the
    # identity).
    return ((f64(x) @ f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


# Helion's attention examples compute in base 2: scores q.k * (1/sqrt(d)) * 1.44269504, exp2,
# log2. `q * qk_scale` is a tensor of q's dtype (a Python float never widens a tensor), so for
# bf16 inputs the scaled queries are rounded to bf16 before the product, as in PyTorch; the
# reference does the same. Everything else is float64, rounded once.
QK_LOG2E = 1.44269504


def attention64(q, k, v, causal: bool):
    m, n, d = q.shape[-2], k.shape[-2], q.shape[-1]
    q_scaled = f64((f64(q) * ((1.0 / math.sqrt(d)) * QK_LOG2E)).astype(q.dtype))
    s = np.einsum("...md,...nd->...mn", q_scaled, f64(k))
    if causal:
        # query i sees keys 0..i (tile_m.index >= tile_n.index), top-left aligned
        s = np.where(np.arange(m)[:, None] >= np.arange(n)[None, :], s, -np.inf)
    top = s.max(axis=-1, keepdims=True)
    p = np.exp2(s - top)
    total = p.sum(axis=-1, keepdims=True)
    out = np.einsum("...mn,...nd->...md", p, f64(v)) / total
    return out.astype(q.dtype), (top + np.log2(total))[..., 0].astype(np.float32)


def philox_words(counters, seed):
    """Philox4x32-10 (Salmon et al., 2011) of counters (first word; the others 0) under the 64-bit
    key `seed`, in numpy uint64 arithmetic: the numbers Helion's `hl.rand` draws."""
    mask = np.uint64(0xFFFFFFFF)
    c0 = np.asarray(counters).astype(np.int64).astype(np.uint64) & mask
    c1 = c2 = c3 = np.zeros_like(c0)
    k0, k1 = seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF
    for _ in range(10):
        p0, p1 = np.uint64(0xCD9E8D57) * c2, np.uint64(0xD2511F53) * c0
        c0, c1, c2, c3 = (((p0 >> np.uint64(32)) ^ c1 ^ np.uint64(k0)) & mask, p0 & mask,
                          ((p1 >> np.uint64(32)) ^ c3 ^ np.uint64(k1)) & mask, p1 & mask)
        k0, k1 = (k0 + 0x9E3779B9) & 0xFFFFFFFF, (k1 + 0xBB67AE85) & 0xFFFFFFFF
    return c0, c1, c2, c3


def philox_signed(counters, seed):
    word = philox_words(counters, seed)[0].astype(np.int64)
    return np.where(word >= 2**31, word - 2**32, word)


def ref_rand(counters, seed):
    # hl.rand's float32 in [0, 1) from Philox's first word (dropout, long_indices, implicit_noise)
    signed = philox_signed(counters, seed)
    magnitude = np.where(signed < 0, -signed - 1, signed)
    return magnitude.astype(np.float32) * np.float32(4.6566127342e-10)
