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
import itertools
import math
from typing import Callable

import numpy as np

from e2e_support import (
    SAMPLES_DIR, BFLOAT16, FLOAT8_E4M3FN, Call, f64, normal, parse_call, read_shapes_file, torch_promote, uniform,
)

_erf = np.vectorize(math.erf, otypes=[np.float64])


# `pallas_loop_type` values (helion-subset.md §6, pallas-target.md §5).
LOOP_STRATEGIES = ("unroll", "grid", "emit_pipeline", "fori_loop")


@dataclasses.dataclass(frozen=True)
class Variant:
    """One compiled config of a sample: block sizes and, for kernels with inner loops, one
    `pallas_loop_type` strategy per inner loop (in order of appearance)."""

    block_sizes: tuple[int, ...]
    loop_types: tuple[str, ...] = ()


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
    # Kernels with inner (nested) tile loops: the `pallas_loop_type` combinations to test, one
    # strategy name per inner loop of the kernel in order of appearance. Every block config runs
    # with every combination (config ids `<config>-<strategy>[-<strategy>...]`).
    loop_types: tuple[tuple[str, ...], ...] = ()
    # Combinations the compiler must refuse with a reason (a strategy that does not apply).
    refused_loop_types: tuple[tuple[str, ...], ...] = ()
    # The dimensions inner loops tile: (index into block_sizes, tensor name, axis) each; the
    # coverage test asks for a runnable call whose extent there the block does not divide.
    inner_dims: tuple[tuple[int, str, int], ...] = ()
    # The kernel returns a tuple even of one tensor (`return (out,)`): the module must too.
    returns_tuple: bool = False
    # The call the TPU simulator tests (interpret="tpu", the DMA race test) run, when not the
    # smallest one: jax 0.10.2's simulator fails to lower an aliased output whose blocks do not
    # divide it (an MLIR verifier error; plain interpret mode and TPU lowering are fine), so
    # such kernels run there on a dividing call.
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


# --- add.py: broadcast_tensors + promote_types + hl.tile(out.size()) -------------------------


def ref_add(x, y):
    dtype = torch_promote(x.dtype, y.dtype)
    a, b = np.broadcast_arrays(f64(x), f64(y))
    return ((a + b).astype(dtype),)


# --- local_config.py: a kernel inside a function, reading the function's config and SCALE --


def ref_local_scale_add(x, y):
    # The function's SCALE (0.25), not the module's (4.0); a Python float keeps x's dtype.
    return ((0.25 * f64(x) + f64(y)).astype(x.dtype),)


# --- helper_calls.py: helper functions of the file, inlined at each call ----------------------


def ref_helper_gelu(x, bias):
    def gelu(v):
        return 0.5 * v * (1.0 + np.tanh(math.sqrt(2.0 / math.pi) * (v + 0.044715 * v**3)))

    v = f64(x)
    return (((gelu(v + f64(bias)[None, :]) + 0.5) - (gelu(v) - 2.0)).astype(x.dtype),)


# --- dtype_branch.py: dtype tests in host code --------------------------------------------------


def ref_dtype_add(x, y):
    # bfloat16 adds in (and returns) float32; other dtypes keep theirs.
    acc = np.float32 if x.dtype == BFLOAT16 else x.dtype
    return ((f64(x) + f64(y)).astype(acc),)


# --- float_size.py: float(n) of sizes ------------------------------------------------------------


def ref_row_mean_scaled(x):
    m, n = x.shape
    return ((f64(x).sum(-1) / n / m).astype(np.float32),)


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


# --- issue 3: row-wise reductions kept whole in VMEM ------------------------------------------
# 16-bit inputs: PyTorch accumulates reductions of bf16 in float32 and rounds once
# (`torch.sum`, `torch.mean`, `F.softmax`, `F.log_softmax`); kernels that widen with
# `.to(torch.float32)` compute in float32. Both agree with "float64, then round once" within the
# tolerances. More issue-3 kernels wait in tests/e2e/pending/ (see try_pending.py there).


def _softmax64(v: np.ndarray, axis: int = -1) -> np.ndarray:
    e = np.exp(v - v.max(axis=axis, keepdims=True))
    return e / e.sum(axis=axis, keepdims=True)


def _log_softmax64(v: np.ndarray, axis: int = -1) -> np.ndarray:
    shifted = v - v.max(axis=axis, keepdims=True)
    return shifted - np.log(np.exp(shifted).sum(axis=axis, keepdims=True))


def ref_softmax(x):
    # softmax.py, softmax_decomposed.py, softmax_3d.py: over the last axis; keeps x's dtype.
    return (_softmax64(f64(x)).astype(x.dtype),)


def ref_log_softmax(x):
    return (_log_softmax64(f64(x)).astype(x.dtype),)


def ref_rms_norm_fwd(x, weight, eps):
    v = f64(x)
    inv_rms = 1.0 / np.sqrt((v * v).mean(axis=-1) + eps)
    out = v * inv_rms[:, None] * f64(weight)
    return out.astype(x.dtype), inv_rms.astype(x.dtype)  # both allocated with x's dtype


def ref_row_sum(x):
    return (f64(x).sum(axis=-1).astype(x.dtype),)


def ref_viewed_row_sum(x_in):
    return (f64(x_in).sum(axis=-1).astype(np.float32),)  # float32 accumulator and result


def ref_rows_from_sum(x, start=0):
    return (f64(x)[start:].sum(axis=0).astype(np.float32),)  # empty when start >= m: zeros


def ref_jagged_add(x, bias, offsets):
    # jagged_add.py: segment g's rows plus bias[g], in x's dtype (offsets cover every row)
    out = f64(x).copy()
    for g in range(len(offsets) - 1):
        out[offsets[g]:offsets[g + 1]] += f64(bias)[g]
    return (out.astype(x.dtype),)


def ref_jagged_row_sum(x, offsets):
    # jagged_row_sum.py: per-segment column sums in float32; an empty segment sums to 0
    return (np.stack([f64(x)[offsets[g]:offsets[g + 1]].sum(axis=0)
                      for g in range(len(offsets) - 1)]).astype(np.float32),)



def ref_jagged_exp_sum(x, lengths):
    # jagged_exp_sum.py: float32 sums of exp over the first lengths[b] rows of batch b
    return (np.stack([np.exp(f64(x)[i, :n]).sum(axis=0) for i, n in enumerate(lengths)])
            .astype(np.float32),)


def negative(rng, shape, dtype):
    """Values in [-9, -1): a masked-out 0 would beat every one of them (jagged_row_max)."""
    return rng.uniform(-9.0, -1.0, size=shape).astype(np.float32).astype(dtype)


def ref_jagged_row_max(x, lengths):
    # jagged_row_max.py: the largest of the first lengths[b] elements of row b, 0 when empty
    return (np.array([f64(x)[i, :n].max() if n else 0.0 for i, n in enumerate(lengths)])
            .astype(np.float32),)


def ref_jagged_gather_sum(x, offsets):
    # jagged_gather_sum.py: float32 sums of each segment of a 1-D x; an empty one sums to 0
    return (np.array([f64(x)[offsets[g]:offsets[g + 1]].sum()
                      for g in range(len(offsets) - 1)]).astype(np.float32),)


def ref_jagged_center(x, offsets):
    # jagged_center.py: each segment minus its mean (in float32), in x's dtype
    out = f64(x).copy()
    for g in range(len(offsets) - 1):
        segment = slice(offsets[g], offsets[g + 1])
        if offsets[g + 1] > offsets[g]:
            out[segment] -= f64(x)[segment].astype(np.float32).mean(dtype=np.float64)
    return (out.astype(x.dtype),)


def ref_grid_elements(x, y):
    # grid_elements.py: out starts at one; each step adds 2 * x[i] + y[n - 1 - i] to out[i]
    dtype = torch_promote(x.dtype, y.dtype)
    return ((1 + 2 * f64(x) + f64(y)[::-1]).astype(dtype),)


def ref_row_ends(x):
    # row_ends.py: ones, the last column the row sums, then column 0 three times x[:, 0] (the
    # second store wins where n == 1)
    out = np.ones(x.shape)
    out[:, -1] = f64(x).sum(axis=1)
    out[:, 0] = 3 * f64(x)[:, 0]
    return (out.astype(x.dtype),)


def ref_stacked_rows(x, y):
    # stacked_rows.py: rows x, -1, 2 * y in x's dtype
    return (np.stack([f64(x), np.full(x.shape, -1.0), 2 * f64(y)]).astype(x.dtype),)


def ref_block_totals(x):
    # block_totals.py: float32 sums of blocks of 128 (the last partial), and ones at each
    # block's first element
    n = x.shape[0]
    sums = np.array([f64(x)[s:s + 128].sum() for s in range(0, n, 128)]).astype(np.float32)
    marks = np.zeros(n)
    marks[::128] = 1.0
    return sums, marks.astype(x.dtype)


def ref_segment_totals(x, offsets):
    # segment_totals.py: float32 sums of each segment's rows (0 for an empty one), added to
    # out's initial tens
    totals = [f64(x)[offsets[g]:offsets[g + 1]].sum() for g in range(len(offsets) - 1)]
    return ((10 + np.array(totals)).astype(np.float32),)



def ref_batch_begin_scale(x, scale):
    # batch_begin_scale.py: each batch's rows times its scale row
    return ((f64(x) * f64(scale)[:, None, :]).astype(torch_promote(x.dtype, scale.dtype)),)



def ref_row_scatter(table, values, ids):
    # row_scatter.py: table's rows `ids` (distinct) replaced by twice values', in place
    out = f64(table).copy()
    out[ids] = 2 * f64(values)
    return (out.astype(table.dtype),)



def ref_slice_gaps(x, fill_tail=True):
    # slice_gaps.py: ones; twice x in the first 16 columns; x from column 32 on if fill_tail
    out = np.ones(x.shape)
    out[:, :16] = 2 * f64(x)[:, :16]
    if fill_tail:
        out[:, 32:] = f64(x)[:, 32:]
    return (out.astype(x.dtype),)


def ref_prefix_row_sum(x, lengths):
    # prefix_row_sum.py: column sums of the first lengths[b] rows in float32
    return (np.stack([f64(x)[:n].sum(axis=0) for n in lengths]).astype(np.float32),)


def ref_jagged_matmul(x, w, offsets):
    # jagged_matmul.py: segment g's rows times w[g] (torch.matmul keeps the operands' dtype,
    # then .to(float32)); the offsets cover every row
    out = np.zeros((x.shape[0], w.shape[2]))
    for g in range(len(offsets) - 1):
        out[offsets[g]:offsets[g + 1]] = f64(x)[offsets[g]:offsets[g + 1]] @ f64(w)[g]
    return (out.astype(torch_promote(x.dtype, w.dtype)).astype(np.float32),)


def ref_jagged_scale_2d(x, scales, offsets):
    # jagged_scale_2d.py: segment g's rows times scales[g], in x's dtype (offsets cover every row)
    out = f64(x).copy()
    for g in range(len(offsets) - 1):
        out[offsets[g]:offsets[g + 1]] *= f64(scales)[g]
    return (out.astype(x.dtype),)


def ref_row_mean(x):
    return (f64(x).mean(axis=1, keepdims=True).astype(np.float32),)  # rows widened first


def ref_col_sum(x):
    return (f64(x).sum(axis=0).astype(x.dtype),)


def ref_first_column_scale(x, scale):
    # first_column_scale.py: computed in float32, stored in x's dtype
    v = f64(x)
    return ((v / v[:, :1] * f64(scale)[0]).astype(x.dtype),)


def ref_row_max(x):
    v = f64(x)
    # torch.max(dim) breaks ties towards the first index, as np.argmax does
    return v.max(axis=-1).astype(x.dtype), np.argmax(v, axis=-1).astype(np.int32), v.min(axis=-1).astype(x.dtype)


def _layer_norm64(x, weight, bias, eps):
    v = f64(x)
    mean = v.mean(axis=-1, keepdims=True)
    var = ((v - mean) ** 2).mean(axis=-1, keepdims=True)  # biased, as F.layer_norm
    rstd = 1.0 / np.sqrt(var + eps)
    out = (v - mean) * rstd * f64(weight)
    if bias is not None:
        out = out + f64(bias)
    return out, mean[..., 0], rstd[..., 0]


def ref_layer_norm(x, weight, bias=None, eps=1e-5):
    out, _, _ = _layer_norm64(x, weight, bias, eps)
    return (out.astype(x.dtype),)  # out = torch.empty([m, n], dtype=x.dtype)


def ref_layer_norm_fwd(x, weight, bias=None, eps=1e-5):
    out, mean, rstd = _layer_norm64(x, weight, bias, eps)
    return out.astype(x.dtype), mean.astype(np.float32), rstd.astype(np.float32)


def _cross_entropy_losses64(logits, labels):
    v = f64(logits)
    rows = np.arange(v.shape[0])
    return -_log_softmax64(v)[rows, labels.astype(np.int64)]


def ref_cross_entropy_gather(logits, labels):
    # cross_entropy_gather.py: losses = torch.zeros([n], dtype=logits.dtype), then .mean().
    return (np.asarray(_cross_entropy_losses64(logits, labels).mean()).astype(logits.dtype),)


def ref_embedding(x, weight):
    # exact: a copy of table rows; [batch, seq] ids -> [batch, seq, dim]
    return (np.asarray(weight)[x.astype(np.int64)],)


def ref_gather_states(slots, states):
    # exact: a copy of whole [heads, rows, width] states; [b] slots -> [b, heads, rows, width]
    return (np.asarray(states)[slots.astype(np.int64)],)


def ref_gather_pairs(ids, weight):
    # exact: table rows (times 2) at a [batch, seq] grid of ids -> [batch, seq, dim]
    picked = np.asarray(weight)[ids.astype(np.int64)]
    return ((picked * 2).astype(picked.dtype),)


def ref_gather_middle(x, channels):
    # exact: x[a, channels[b], 1:] -> [rows, k, features - 1]
    return (np.asarray(x)[:, channels.astype(np.int64), 1:],)


def ref_same_shape_mul(a, b):
    # one product per element, rounded once to the inputs' dtype
    product = np.asarray(a).astype(np.float64) * np.asarray(b).astype(np.float64)
    return (product.astype(np.asarray(a).dtype),)


def ref_offset_rows(x, shift=3):
    # one difference per element, rounded once to x's dtype
    wide = np.asarray(x).astype(np.float64)
    return ((wide[shift:] - wide[: wide.shape[0] - shift]).astype(np.asarray(x).dtype),)


def ref_grid_axpy(x, y, alpha=2.0):
    # float32 inputs: alpha * x rounded to float32, then the sum rounded once more
    scaled = (np.float32(alpha) * np.asarray(x, np.float32)).astype(np.float32)
    return ((scaled + np.asarray(y, np.float32)).astype(np.float32),)


def ref_cross_entropy(logits, labels):
    # cross_entropy.py: losses are float32 whatever the logits' dtype; the mean is a 0-d f32.
    return (np.asarray(_cross_entropy_losses64(logits, labels).mean()).astype(np.float32),)


# --- bounded slices of tensors: column_halves, neighbour_diff, top_rows, concat_scaled -------


def ref_column_halves(x):
    # column_halves.py: out = zeros_like(x); the split is at n // 2, computed in x's dtype
    v = f64(x)
    half = x.shape[1] // 2
    out = np.concatenate([v[:, :half] * 2.0, v[:, half:] + 1.0], axis=1)
    return (out.astype(x.dtype),)


def ref_neighbour_diff(x):
    v = f64(x)
    return ((v[:, 1:] - v[:, :-1]).astype(x.dtype),)


def ref_top_rows(x, scale=3.0):
    v = f64(x)
    # the rows from 8 less their first element, in x's dtype
    rest = (v[8:] - v[8:, :1]).astype(x.dtype)
    return (np.concatenate([(v[:8] * scale).astype(x.dtype), rest], axis=0),)


def ref_tail_sum(x):
    return (f64(x)[:, :, 1:].sum(axis=(1, 2)).astype(np.float32),)


def ref_concat_scaled(a, b):
    # the second half is computed in b's dtype, then cast to a's (out's) dtype
    halved = (f64(b) * 0.5).astype(b.dtype)
    return (np.concatenate([f64(a), f64(halved)], axis=1).astype(a.dtype),)


# Index inputs (cross-entropy labels, embedding ids) must lie in [0, size of another tensor's
# axis). A generator sees only its own tensor's shape, so `remember_shape` notes the shape of
# the table tensor and `indices_below` reads it; the table tensor must come first on the
# `.shapes` line (make_inputs generates tensors in the line's order).

_shapes_seen: dict[str, tuple[int, ...]] = {}


def remember_shape(name: str, make=normal):
    """A generator for tensor `name` that also records its shape for `indices_below`."""

    def generate(rng, shape, dtype):
        _shapes_seen[name] = tuple(shape)
        return make(rng, shape, dtype)

    return generate


def indices_below(name: str, axis: int):
    """Integers uniform in [0, shape_of(name)[axis]), `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the index tensor"
        return rng.integers(0, bound[axis], size=shape).astype(dtype)

    return generate


def distinct_indices_below(name: str, axis: int):
    """Distinct integers in [0, shape_of(name)[axis]) in random order (a scatter's rows, so
    that no two stores meet), `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the index tensor"
        return rng.permutation(bound[axis])[: shape[0]].astype(dtype)

    return generate


def segment_offsets(name: str, axis: int):
    """Sorted int offsets from 0 to shape_of(name)[axis] (segments of a jagged array), `name`
    generated earlier in the same call. Besides cuts drawn at random (inside blocks), one cut
    lies on a 16-row boundary, two are equal (an empty segment) and, with four cuts or more,
    the last segment is empty at the array's end (its start past the last block when the
    blocks divide the rows)."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the offsets"
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


def alternating_flags(high: int = 4):
    """Int flags in [0, high), the first 1 and 0 in turn from one generated call to the next
    (both branches of an `if` on it run across the calls)."""
    calls = itertools.count()

    def generate(rng, shape, dtype):
        flags = rng.integers(0, high, size=shape)
        flags[0] = (next(calls) + 1) % 2
        return flags.astype(dtype)

    return generate


def lengths_below(name: str, axis: int):
    """Int lengths in [0, shape_of(name)[axis]], `name` generated earlier in the same call:
    0 and the whole axis first, then lengths drawn at random."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the lengths"
        rows = bound[axis]
        lengths = rng.integers(0, rows + 1, size=shape)
        lengths.flat[:2] = [0, rows][:lengths.size]
        return lengths.astype(dtype)

    return generate


# Softmax outputs are ~1/n, so bf16's default atol (2e-2) would accept anything; the errors are
# relative instead: eager-bf16 rounding of `x - max` (half an ulp of up to 8 is 0.016 in the
# exponent), of exp, the sum and the quotient add up to under 3% (emulated in
# pending/test_pending_references.py).
SOFTMAX_TOLERANCE = {BFLOAT16: (3e-2, 1e-4)}
# An f32 sum of up to 4096 N(0, 1) terms: its rounding error reaches ~5e-4 summed in order
# (measured), ~3e-5 as a tree, for sums of size ~sqrt(n).
SUM_TOLERANCE = {np.dtype(np.float32): (1e-5, 1e-3)}


# --- hl.arange, tile reshapes, a tile next to a tile of indices -----------------------------


def ref_tril(x):
    # tril.py: the elements on or below the diagonal, zeros elsewhere; x's dtype
    return (np.tril(x),)


def ref_soft_argmax(x):
    # soft_argmax.py: sum over columns of softmax(row) * column index, in float32
    return ((np.exp(_log_softmax64(f64(x))) * np.arange(x.shape[-1])).sum(axis=-1).astype(np.float32),)


def ref_row_center(x, w):
    # row_center.py: (rows - mean) * w[row] in x's dtype, and the float32 means
    v = f64(x)
    mean = v.mean(axis=-1, keepdims=True)
    return ((v - mean) * f64(w)[:, None]).astype(x.dtype), mean[:, 0].astype(np.float32)


def ref_cross_entropy_pick(logits, labels):
    # cross_entropy_pick.py: per-row losses, float32 whatever the logits' dtype
    return (_cross_entropy_losses64(logits, labels).astype(np.float32),)


# Thresholds and scalars below are exactly representable in bfloat16, so comparisons against
# them cannot flip between a kernel that rounds the scalar to the tensor's dtype and the float64
# reference.
# --- issue 4: matrix products with the contracted dimension kept whole -------------------------
# Products accumulate in float32 (float32 operands at full precision) and round once to the
# result dtype, which agrees with "float64, then round once" within the tolerances; float32
# results get atol 1e-4 (PRODUCT_TOLERANCE): a float32 sum of up to 512 products of order-1 values.

PRODUCT_TOLERANCE = {np.dtype(np.float32): (1e-5, 1e-4)}


def ref_matmul(x, y):
    # torch.matmul of one dtype keeps it (the epilogue default is the identity).
    return ((f64(x) @ f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


def ref_matmul_upcast(x, y):
    return ((f64(x) @ f64(y)).astype(np.float32),)


def ref_fp8_quantize(x, scale):
    # fp8_quantize.py: the float32 product, rounded once to E4M3 (as the kernel's `.to()`)
    product = x.astype(np.float32) * scale.astype(np.float32)[:, None]
    return (product.astype(FLOAT8_E4M3FN),)


def ref_fp8_matmul(x, y, scale=0.5):
    # fp8_matmul.py: 8-bit operands widen exactly; (x @ y) * scale rounded once to bfloat16
    return (((f64(x) @ f64(y)) * scale).astype(BFLOAT16),)


def ref_half_matmul(x, y, scale=1.0):
    # half_matmul.py: 16-bit operands cast to float16 (exactly for these inputs), the product
    # and the scale rounded once to float16 (the module accumulates at float32 precision)
    return (((f64(x.astype(np.float16)) @ f64(y.astype(np.float16))) * scale).astype(np.float16),)


def ref_int8_matmul(x, y, x_scale, y_scale):
    # int8_matmul.py: the int32 product exact, then scaled in float32
    product = (x.astype(np.int64) @ y.astype(np.int64)).astype(np.float32)
    return ((product * (x_scale[:, None] * y_scale[None, :])).astype(np.float32),)


def ref_int8_matmul_whole_k(x, y):
    # int8_matmul_whole_k.py: exact integer products summed in int32 (no sum here reaches 2**31)
    return ((x.astype(np.int64) @ y.astype(np.int64)).astype(np.int32),)


def full_int8_range(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
    # every int8 value, -128 included: the largest products an int8 product can sum
    return rng.integers(-128, 127, size=shape, endpoint=True).astype(dtype)


def ref_linear_relu(x, w, bias):
    return (np.maximum(f64(x) @ f64(w).T + f64(bias), 0.0).astype(x.dtype),)


def ref_block_diag_matmul(x, w):
    # Column blocks of 128 (the whole of n when n <= 128, which is the same thing).
    a, b = f64(x), f64(w)
    out = np.empty_like(a)
    for j in range(0, a.shape[1], 128):
        out[:, j : j + 128] = a[:, j : j + 128] @ b[j : j + 128, j : j + 128]
    return (out.astype(x.dtype),)


def ref_attention_scores(q, k, scale):
    return ((scale * np.einsum("bmd,bnd->bmn", f64(q), f64(k))).astype(np.float32),)


# --- issue 4: inner (nested) tile loops ---------------------------------------------------------
# Kernels whose body holds a `for ... in hl.tile(...)` over a dimension: the K loop of a matmul,
# the key loop of flash attention, the passes of a two-pass softmax. Each runs with every
# `pallas_loop_type` strategy that applies (SampleSpec.loop_types); partial last tiles of the
# looped dimension (padding, NaN in the interpreter) must never reach a sum, a maximum or a
# product.


def ref_long_sum(x):
    # long_sum.py: float32 accumulator, the result stored in x's dtype
    return (f64(x).sum(axis=-1).astype(x.dtype),)


def ref_scale_bf16(x, scale=0.18033688):
    # scalar_mul_bf16.py: `x * scale` in x's dtype, computed with the Python float unrounded
    # (PyTorch's opmath) and rounded once; then widened exactly to float32.
    return ((f64(x) * scale).astype(x.dtype).astype(np.float32),)


def ref_causal_row_sum(x):
    # causal_row_sum.py: sums of the lower triangle's rows, float32
    return (np.tril(f64(x)).sum(axis=-1).astype(np.float32),)


def ref_horner(x, degree=3):
    # horner.py: Horner's scheme in float32 with coefficients 1, 2, ..., degree + 1
    v = f64(x)
    acc = np.ones_like(v)
    for i in range(1, degree + 1):
        acc = acc * v + (i + 1)
    return (acc.astype(x.dtype),)


def ref_device_branches(x, flags, out, limit=2):
    # device_branches.py: scaled by flags[0] > 0 (2x, else x / 2 - 1); out + x where
    # flags[1] >= limit, else out unchanged; picked row i by i % 3 (x, -x, 3x)
    v = f64(x)
    scaled = v * 2.0 if flags[0] > 0 else v * 0.5 - 1.0
    updated = f64(out) + v if flags[1] >= limit else f64(out)
    factor = np.array([1.0, -1.0, 3.0])[np.arange(v.shape[0]) % 3]
    return (scaled.astype(x.dtype), updated.astype(out.dtype), (v * factor[:, None]).astype(x.dtype))


def ref_python_loops(x, a, b, taps=3):
    # python_loops.py: 1x + 3x + 5x stored one by one (each store rounds to x's dtype), then
    # v * (1 + 1/2 + ... + 1/taps), times 0.5 and -2.0, plus a and b, in float32
    v = f64(x)
    out = np.zeros_like(v)
    for k in (1, 3, 5):
        out = f64((out + (v * k).astype(x.dtype).astype(np.float64)).astype(x.dtype))
    acc = v * sum(1.0 / (t + 1) for t in range(taps)) * 0.5 * -2.0 + f64(a) + f64(b)
    return ((out + acc.astype(np.float32).astype(x.dtype)).astype(x.dtype),)


def ref_softmax_bwd(grad_output, softmax_output):
    # softmax_bwd.py: y * (dy - sum(y * dy)); the store casts to grad_output's dtype
    y, dy = f64(softmax_output), f64(grad_output)
    return ((y * (dy - (y * dy).sum(axis=-1, keepdims=True))).astype(grad_output.dtype),)


def softmax_rows(rng, shape, dtype):
    """Rows of a softmax (positive, summing to 1 before rounding): softmax_bwd's `softmax_output`."""
    return _softmax64(rng.standard_normal(shape)).astype(np.float32).astype(dtype)


def ref_matmul_bias_relu(x, y, bias):
    dtype = torch_promote(x.dtype, y.dtype)
    return (np.maximum(f64(x) @ f64(y) + f64(bias), 0.0).astype(dtype),)


def ref_bmm(A, B):
    return ((f64(A) @ f64(B)).astype(torch_promote(A.dtype, B.dtype)),)


# Helion's attention examples compute in base 2: scores q.k * (1/sqrt(d)) * 1.44269504, exp2,
# log2. `q * qk_scale` is a tensor of q's dtype (a Python float never widens a tensor), so for
# bf16 inputs the scaled queries are rounded to bf16 before the product, as in PyTorch; the
# reference does the same. Everything else is float64, rounded once.
QK_LOG2E = 1.44269504


def _attention64(q, k, v, causal: bool):
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


def ref_attention_output(q_in, k_in, v_in):
    return (_attention64(q_in, k_in, v_in, causal=False)[0],)


def ref_causal_attention_output(q_in, k_in, v_in):
    return (_attention64(q_in, k_in, v_in, causal=True)[0],)


def ref_attention_heads_merged(q, k, v):
    # per batch and head: the merged rows are one head's queries (s12-merge)
    return (_attention64(q, k, v, causal=False)[0],)


def ref_attention_lse(q_in, k_in, v_in):
    # out in q's dtype, the base-2 LSE in float32 of shape q.shape[:-1]
    return _attention64(q_in, k_in, v_in, causal=False)


def ref_matmul_layernorm(x, y, weight, bias, eps=1e-5):
    acc = f64(x) @ f64(y)
    mean = acc.mean(axis=-1, keepdims=True)
    var = ((acc - mean) ** 2).mean(axis=-1, keepdims=True)  # correction=0
    out = (acc - mean) / np.sqrt(var + eps) * f64(weight) + f64(bias)
    return (out.astype(torch_promote(x.dtype, y.dtype)),)


# --- one-element tuples, in-place updates, 2-D inner loops, size-1 axes (issue 12) -------------


def ref_scaled_copy(x, scale=2.0):
    return ((f64(x) * scale).astype(x.dtype),)


def ref_sorted_pair(x, y):
    return (np.minimum(x, y), np.maximum(x, y))


def ref_add_inplace(x, y):
    # The updated x: the module returns it (JAX arrays are immutable).
    return ((f64(x) + f64(y)).astype(x.dtype),)


def ref_split_k_matmul(x, y):
    return ((f64(x) @ f64(y)).astype(np.float32),)


def ref_tunable_split_k(x, y):
    # The number of K slices (an `hl.register_tunable` key) does not change the product.
    return ((f64(x) @ f64(y)).astype(np.float32),)


def ref_atomic_contributions(x):
    return ((1 + f64(x).sum(0)).astype(x.dtype),)


def ref_atomic_max_update(x, y):
    # The kernel's result (x's old contents), then the updated parameter x.
    return (x.copy(), np.maximum(x, y))


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
    signed = philox_signed(counters, seed)
    magnitude = np.where(signed < 0, -signed - 1, signed)
    return magnitude.astype(np.float32) * np.float32(4.6566127342e-10)


def ref_randint(counters, seed, low, high):
    signed = philox_signed(counters, seed)
    return (low + np.abs(signed) % (high - low)).astype(np.int32)


def ref_dropout(x, p=0.5, seed=0):
    m, n = x.shape
    draw = ref_rand(np.arange(m * n).reshape(m, n), seed)
    keep = (draw >= p).astype(np.float32)
    return ((f64(x) * keep / (1.0 - p)).astype(x.dtype), keep)


def ref_random_bins(x, seed=1):
    bins = ref_randint(np.arange(x.shape[0]), seed, -5, 17)
    return (bins, (f64(x) + bins).astype(x.dtype))


def ref_prefix_scans(x):
    # prefix_scans.py: scans of each row in float32, stored in x's dtype
    row = f64(x.astype(np.float32))
    high, low = np.maximum.accumulate(row, axis=1), np.minimum.accumulate(row, axis=1)
    outputs = (
        np.cumsum(row, axis=1),
        np.cumsum(row[:, ::-1], axis=1)[:, ::-1],
        np.cumprod(1.0 + 0.01 * row, axis=1),
        high,
        high - low,
    )
    return tuple(out.astype(x.dtype) for out in outputs)


def ref_first_argmax(x, labels):
    # first_argmax.py: the label at each row's first largest value, sums of squares, products
    first = np.argmax(x, axis=1)  # numpy's argmax is the first on ties, as the combine keeps
    best = np.take_along_axis(x, first[:, None], axis=1)[:, 0]
    where = np.take_along_axis(labels, first[:, None], axis=1)[:, 0].astype(np.int32)
    wide = f64(x.astype(np.float32))
    squares = (wide * wide).sum(axis=1, keepdims=True).astype(np.float32)
    product = np.prod(1.0 + 0.01 * wide, axis=1).astype(np.float32)
    return (best, where, squares, product)


def ref_long_indices(x, seed=7):
    # long_indices.py: int64 taken as int32 (the argmax indices come back as int32)
    m = x.shape[0]
    first = np.argmax(f64(x), axis=1).astype(np.int32)
    return (first, ref_rand(2 * np.arange(m) + 1, seed))


def ref_implicit_noise(x):
    # implicit_noise.py: the first torch.rand* call of the kernel has seed 0, the second seed 1;
    # counters are positions in [m, n]; rand_like of a bf16 row is rounded to bf16 before adding
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
    u1, u2 = (f64(_uniform_of_word(w)) for w in words[:2])
    return np.sqrt(-2.0 * np.log(np.maximum(u1, np.float32(1e-7)))) * np.cos(2 * np.pi * u2)


def _uniform_of_word(word):
    signed = word.astype(np.int64)
    signed = np.where(signed >= 2**31, signed - 2**32, signed)
    magnitude = np.where(signed < 0, -signed - 1, signed)
    return magnitude.astype(np.float32) * np.float32(4.6566127342e-10)


def small_integers(rng: np.random.Generator, shape, dtype: np.dtype) -> np.ndarray:
    """Integers 0..7 as floats: rows with repeated maxima (first_argmax's ties)."""
    return rng.integers(0, 8, size=shape).astype(dtype)


def ref_accumulate(total, x, count):
    return ((f64(total) + f64(x)).astype(total.dtype), (count.astype(np.int64) + 1).astype(count.dtype))


def ref_row_sums(x, running):
    sums = f64(x).sum(-1)
    return (sums.astype(np.float32), (f64(running) + sums.astype(np.float32)).astype(running.dtype))


def ref_add_3d(x, y):
    return ((f64(x) + f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


def ref_batch_sum(x):
    return (f64(x).sum((1, 2)).astype(np.float32),)


def ref_matmul_bias(x, y, bias):
    # A size-1 axis of bias broadcasts along its tile, as numpy broadcasts it.
    dtype = torch_promote(x.dtype, y.dtype)
    return ((f64(x) @ f64(y) + f64(bias)).astype(dtype),)


def ref_weighted_row_sum(x, w):
    return ((f64(x) * f64(w)).sum(-1).astype(np.float32),)


def ref_scaled_row_sum(x):
    return ((f64(x).sum(-1) * 0.5).astype(np.float32),)


def ref_scale_add_row(x, row):
    return ((f64(x) * 2 + f64(row)).astype(torch_promote(x.dtype, row.dtype)),)


def ref_first_columns(x, limit=256, scale=-2.7):
    cols = min(x.shape[1], limit, 4096)
    return ((f64(x[:, :cols]) * abs(int(scale))).astype(x.dtype),)


def ref_add_plane(x, y):
    return ((f64(x) + f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


def ref_row_max_and_double(x):
    return (x.max(-1), (f64(x) * 2).astype(np.float32))


def ref_add_unit_axes(x, y):
    return ((f64(x) + f64(y)).astype(torch_promote(x.dtype, y.dtype)),)


ALL_STRATEGIES = (("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",))


# --- live_row_windows.py: loops over a loaded block's live rows --------------------------------


def ref_live_row_windows(x):
    # Each token once through the pair windows and half again through the row windows.
    return ((1.5 * f64(x).sum(0, keepdims=True)).astype(np.float32),)


# --- fixed_row_windows.py: constant windows of a loaded block ---------------------------------


def ref_fixed_row_windows(x):
    v = f64(x)
    acc = np.zeros((1, 2, 128))
    for start in range(0, v.shape[0], 4):
        block = v[start : start + 4]
        acc += block[1, :, :128] + block[1:3, :, 128:256].sum(0) + block[:, 0, 64:192].sum(0)
    return (acc.astype(np.float32),)


# --- live_row_if.py: an `if` on a device scalar around windows ---------------------------------


def ref_live_row_if(x):
    v = f64(x)
    acc = np.zeros((1, 2, 128))
    for start in range(0, v.shape[0], 4):
        live = min(4, v.shape[0] - start)
        if live >= 3:
            acc += v[start : start + live].sum(0) + 0.5 * v[start + live - 3 : start + live].sum(0)
    return (acc.astype(np.float32),)


# --- slab_center.py: reductions without `dim` over a whole slab ---------------------------------


def ref_slab_center(x, spread):
    v = f64(x)
    centered = v - v.mean(axis=(1, 2), keepdims=True)
    peak = np.abs(centered).max(axis=(1, 2), keepdims=True)
    share = (v > 0).mean(axis=(1, 2), keepdims=True)
    top = v.max(axis=(1, 2), keepdims=True)
    return ((centered / (peak + spread) + share + top).astype(np.float32),)


# --- blend_norm.py: lerp, var_mean, add(alpha=), std/var with and without Bessel's correction --


def ref_blend_norm(x, y, w, eps):
    mix = f64(x) + w * (f64(y) - f64(x))
    mean = mix.mean(axis=1, keepdims=True)
    var = mix.var(axis=1, keepdims=True)
    out = (mix - mean) / np.sqrt(var + eps)
    spread = mix.std(axis=1, ddof=1) + mix.var(axis=1)
    return out.astype(x.dtype), spread.astype(np.float32)


# --- stacked_planes.py: torch.stack of tile values along a new leading or middle axis --------


def ref_stacked_planes(a, b, c):
    planes = np.stack([a, b, c])
    x, y, z = f64(a), f64(b), f64(c)
    # x + y and x * z round to the inputs' dtype first (bf16 arithmetic), then widen.
    pairs = np.stack([(x + y).astype(a.dtype), (x * z).astype(a.dtype)], axis=1)
    return planes, pairs.astype(np.float32)


# --- row_pick.py: torch.gather of tile values along the lane axis -----------------------------


def ref_row_pick(x, index, scale):
    return ((scale * np.take_along_axis(f64(x), index, axis=1)).astype(np.float32),)


# --- row_gate.py: a per-row mask expanded to the block (view/expand with block sizes) ---------


def ref_column_pick(x, index):
    return (np.take_along_axis(x, index, axis=0),)


def ref_row_gate(x, bias, scale):
    gated = np.where(x[:, :1] > 0, f64(x), 0.0).astype(x.dtype)
    return ((f64(gated * scale.astype(x.dtype)) + f64(bias)).astype(x.dtype),)


# --- debug_prints.py: print in host and device code (what it prints: test_print.py) ----------


def ref_debug_prints(x, scale):
    return ((f64(x) * scale).astype(x.dtype),)


# --- head_projection.py: hl.dot of a 2-D tile with a 3-D one (broadcast over the batch) --------


def ref_head_projection(x, w):
    return ((f64(x)[None] @ f64(w)).astype(x.dtype),)


# --- clipped_window.py: Python's min/max of device scalars -------------------------------------


def ref_clipped_window(x, lo, hi):
    position = np.arange(x.shape[0])
    return (np.where((position >= lo) & (position < hi), x, 0).astype(x.dtype),)


# --- band_row_sum.py: inner-loop bounds from max/min of the outer tile's bounds ---------------


def ref_band_row_sum(x, width):
    rows, cols = x.shape
    offset = np.arange(rows)[:, None] - np.arange(cols)[None, :]
    inside = (offset >= 0) & (offset <= width)
    return (np.where(inside, f64(x), 0).sum(-1).astype(np.float32),)


# --- device_constructors.py: torch.zeros/ones/full in device code ------------------------------


def ref_device_constructors(x, y):
    return ((3 * f64(x) + f64(y)).astype(np.float32),)


# --- host_arithmetic.py: host arithmetic on whole tensors, `.stride()` --------------------------


def ref_host_arithmetic(x, y):
    # x.stride(0) of a contiguous array: the product of the later sizes (1 for a vector).
    row_stride = int(np.prod(x.shape[1:]))
    vx, vy = f64(x), f64(y)
    return (((vx - 1.0) * vy + 2.0 * (vy + row_stride) + vx).astype(x.dtype),)


# --- host_gather.py: indexing whole tensors in host code ----------------------------------------


def ref_host_gather(x, idx):
    return ((f64(x)[idx][:, :-1] + 1.0).astype(x.dtype),)


# --- static_params.py: str, torch.dtype and torch.device parameters; view_as, .T; .stride() ---


def ref_static_params(x, flat_y, mode="add", acc_dtype=np.float32, device=None):
    dtype = np.dtype(acc_dtype)
    a = f64(x.astype(dtype))
    y = f64(flat_y.reshape(x.shape[::-1]).T.astype(dtype))
    row_stride = x.shape[1]
    return ((a + y if mode == "add" else a * y + row_stride).astype(dtype),)


# --- session 10, s10-blocksize: registered block sizes used as values -------------------------


def ref_block_means(x):
    # block_means.py: the float32 column sums of x, whatever the block (means times the block)
    return (f64(x).sum(0).astype(np.float32),)


def ref_block_square_sums(x):
    # block_square_sums.py: the float32 column sums of squares of x, whatever the blocks
    return ((f64(x) ** 2).sum(0).astype(np.float32),)


# --- session 10, s10-params: parameters that are lists, tuples or dicts of tensors -----------


def ref_pack_weighted_sum(xs):
    acc = sum((i + 1) * f64(x) for i, x in enumerate(xs))
    return (acc.astype(xs[0].dtype),)


def ref_pack_blend(pair, gates):
    return tuple((f64(x) * f64(gates["scale"]) + f64(gates["bias"])).astype(x.dtype) for x in pair)


def ref_pack_accumulate(outs, x):
    # The kernel updates outs[0] and outs[1] in place; the module returns both.
    return (
        (f64(outs[0]) + f64(x)).astype(outs[0].dtype),
        (f64(outs[1]) * f64(x)).astype(outs[1].dtype),
    )


def ref_pack_comprehension(xs):
    # The host terms keep the inputs' dtype (a Python float does not promote).
    terms = [(f64(xs[0]) * 2.0 + 1.0).astype(xs[0].dtype), (f64(xs[1]) * 0.5 + 1.0).astype(xs[1].dtype)]
    return ((f64(terms[0]) + f64(terms[1])).astype(xs[0].dtype),)


def ref_grid_clamp(values, lo=-0.5, hi=0.5):
    return (np.clip(f64(values), lo, hi).astype(values.dtype),)


# --- session 10, s10-stores: indices that move in the kernel; inner loops short of an output ---


def ref_rotate_rows(x):
    # rotate_rows.py: row r is twice row (r + 1) % rows
    return ((2 * np.roll(f64(x), -1, axis=0)).astype(x.dtype),)


def ref_token_prefix_sums(x, start):
    # token_prefix_sums.py: start + the running sum over tokens, in float32, cast to x's dtype
    return ((f64(start) + np.cumsum(f64(x), axis=0)).astype(x.dtype),)


def ref_last_scale_rows(x, out, scale):
    # last_scale_rows.py: x's rows of out are x times the last scale; the others unchanged
    result = f64(out).copy()
    result[: x.shape[0]] = f64(x) * f64(scale)[-1]
    return (result.astype(out.dtype),)



def ref_stamp_last_column(x):
    # stamp_last_column.py: twice x, the last column x's first
    out = 2 * f64(x)
    out[:, -1] = f64(x)[:, 0]
    return (out.astype(x.dtype),)


def ref_two_halves(x, y):
    # two_halves.py: zeros; twice x on the first half, y - 1 on the second (n // 2 each)
    half = x.shape[0] // 2
    out = np.zeros(x.shape)
    out[:half] = 2 * f64(x)[:half]
    out[half : 2 * half] = f64(y)[half : 2 * half] - 1
    return (out.astype(x.dtype),)


# --- session 10, s10-shapes: reshapes that regroup whole axes -----------------------------


def ref_pair_views(x):
    # pair_views.py: the mean of adjacent column pairs, in float32, cast back to x's dtype
    v = f64(x)
    return ((v.reshape(v.shape[0], 32, 2).sum(-1) * 0.5).astype(x.dtype),)


def ref_merge_views(x):
    # merge_views.py: the 128 elements of each row as 2 halves of 64, less each half's maximum,
    # plus the second half
    halves = f64(x).reshape(x.shape[0], 2, 64)
    out = halves - halves.max(axis=-1, keepdims=True) + halves[:, 1:2, :]
    return (out.astype(x.dtype),)

# --- session 11, s11-flow: stores in host code, names bound on one branch of a static `if`,
# carried values whose axes agree only when the kernel is called -----------------------------


def ref_scatter_back(x, perm):
    # scatter_back.py: 2x + 1 (gathered by perm, scattered back), the first row -1, the last
    # row's first element 10 more
    out = 2 * f64(x) + 1
    out[0, :] = -1.0
    out[-1, 0] += 10.0
    return (out.astype(x.dtype),)


def ref_last_step_zero(x):
    # last_step_zero.py: exp(x) - 1 except at the last step, which is 0.5
    out = np.exp(f64(x)) - 1
    out[:, -1, :] = 0.5
    return (out.astype(x.dtype),)


def ref_host_clear_ends(x, y):
    # host_clear_ends.py: x + y, then the first element 0 and the last 1 (x updated in place)
    out = (f64(x) + f64(y)).astype(x.dtype).reshape(-1)
    out[0] = 0.0
    out[-1] = 1.0
    return (out.reshape(x.shape),)


def ref_optional_col_sums(x, y, with_y=True):
    # optional_col_sums.py: x's column sums, and y's (or -1) below them, float32
    second = f64(y).sum(0) if with_y else np.full(x.shape[1], -1.0)
    return (np.stack([f64(x).sum(0), second]).astype(np.float32),)


def ref_column_gemv(w, v):
    # column_gemv.py: w @ v in float32
    return ((f64(w) @ f64(v)).astype(np.float32),)


def ref_shifted_state(x, init):
    # shifted_state.py: each step plus the one before (init before the first)
    v = f64(x)
    before = np.concatenate([f64(init)[None], v[:-1]])
    return ((v + before).astype(x.dtype),)


def ref_block_partial_sums(x):
    # block_partial_sums.py: twice x, and x's column sums in float32
    return ((2 * f64(x)).astype(x.dtype), f64(x).sum(0).astype(np.float32))


def ref_any_rank_scratch(x, scratch):
    # any_rank_scratch.py: 2 (x + 1), and scratch updated to x + 1 (returned after it)
    plus = (f64(x) + 1).astype(x.dtype)
    return ((2 * f64(plus)).astype(x.dtype), plus)


# --- session 11, s11-sizes: sizes computed from other sizes ---------------------------------


def ref_rotary_pairs(x, cos, sin):
    # rotary_pairs.py: the halves rotated by the angles, in float32, cast back to x's dtype
    v = f64(x)
    half = x.shape[1] // 2
    c = f64(cos).astype(np.float32).astype(np.float64)
    s = f64(sin).astype(np.float32).astype(np.float64)
    x1, x2 = v[:, :half], v[:, half:]
    return (np.concatenate([x1 * c - x2 * s, x2 * c + x1 * s], axis=1).astype(x.dtype),)


def ref_half_fold(x):
    # half_fold.py: the two halves of each row added, plus the positions 0 .. n // 2 - 1
    half = x.shape[1] // 2
    v = f64(x)
    return ((v[:, :half] + v[:, half:] + np.arange(half)[None, :]).astype(np.float32),)


def ref_foreign_acc(a, b, c):
    # foreign_acc.py: a @ b accumulated in float32, plus c
    return ((f64(a) @ f64(b) + f64(c)).astype(np.float32),)


def ref_block_lane_sums(x):
    # block_lane_sums.py: each row's sum of squares, in float32
    v = f64(x)
    return ((v * v).sum(axis=1).astype(np.float32),)


def ref_splat_view(x):
    # splat_view.py: each row scaled by its sum (in float32), in x's dtype and shape
    v = f64(x)
    return ((v * v.sum(-1, keepdims=True)).astype(x.dtype),)



# --- session 11, s11-ops: sorts, joins, ramps ---------------------------------------------------


def ref_row_sorts(x):
    # Stable orders by position among equal values (bf16 rows have ties), as the module's.
    wide = f64(x)
    down = np.take_along_axis(x, np.argsort(-wide, axis=1, kind="stable"), axis=1)
    order = np.argsort(wide, axis=1, kind="stable").astype(np.int32)
    low_at = order[:, :4]
    return down, order, np.take_along_axis(x, low_at, axis=1), low_at


def ref_edge_joins(x, fill=-1.0):
    swapped = np.concatenate([x[:, 4:8], (f64(x[:, :4]) * 2).astype(x.dtype)], axis=1)
    m = x.shape[0]
    padded = np.concatenate(
        [np.full((m, 2), fill), f64(x[:, :4]), np.full((m, 3), -np.inf)], axis=1)
    return swapped, padded.astype(np.float32)


def ref_stepped_ramps(x, squared=True):
    v = f64(x.astype(np.float32))
    i = np.arange(x.shape[0], dtype=np.float64)
    shaped = v ** 2 * 2.0 if squared else np.abs(v) * 0.5
    return ((shaped + 2 * i + (i + 1) + 20).astype(np.float32),)

# --- session 11, s11-joins: joined axes and top-k widths computed from sizes --------------------
def ref_wide_joins(x, y, fill=0.0, spare=0):
    m = x.shape[0]
    both = np.concatenate([x, y], axis=1)
    padded = np.concatenate([f64(x), np.full((m, 128), fill)], axis=1).astype(np.float32)
    framed = np.concatenate(
        [np.zeros((m, spare)), np.full((m, 1), -np.inf), f64(both), np.zeros((m, y.shape[1]))],
        axis=1).astype(x.dtype)
    return both, padded, framed


def ref_row_topk(x, k=8):
    # Ties by position (bf16 rows have ties), as the module's selection takes the first.
    wide = f64(x)
    top_at = np.argsort(-wide, axis=1, kind="stable")[:, :k].astype(np.int32)
    low = np.sort(wide, axis=1)[:, : x.shape[1] // 2].astype(x.dtype)
    return np.take_along_axis(x, top_at, axis=1), top_at, low


# --- session 11, s11-indices: scalar indices computed in the kernel -------------------------


def ref_kv_head_groups(q, kv):
    # kv_head_groups.py: query head h times kv head h // (heads // kv_heads)
    groups = q.shape[0] // kv.shape[0]
    return ((f64(q) * np.repeat(f64(kv), groups, axis=0)).astype(q.dtype),)


def ref_split_heads(x, heads=2):
    # split_heads.py: twice x, its first axis split into (bh // heads, heads)
    bh, s, d = x.shape
    return ((2 * f64(x)).reshape(bh // heads, heads, s, d).astype(x.dtype),)


def ref_grid_in_grid(x):
    # grid_in_grid.py: twice the next column (cyclically) plus the column's index
    v = f64(x)
    return ((2 * np.roll(v, -1, axis=1) + np.arange(x.shape[1])[None, :]).astype(x.dtype),)


def ref_chunk_row_sums(x, chunk=12):
    # chunk_row_sums.py: the sum of each chunk's rows, per head, in float32
    b, s, h, d = x.shape
    return (f64(x).reshape(b, s // chunk, chunk, h, d).sum(2).astype(x.dtype),)


def ref_weighted_taps(x, w):
    # weighted_taps.py: sum_j w[j] * x[i + j], zeros past x's end, in float32 cast to x's dtype
    n, taps = x.shape[0], w.shape[0]
    padded = np.concatenate([f64(x), np.zeros(taps)])
    return (sum(f64(w)[j] * padded[j : j + n] for j in range(taps)).astype(x.dtype),)


def ref_chunk_column_offsets(g):
    # chunk_column_offsets.py: each element less the first of its chunk of 8 rows, per column
    first = f64(g)[:, np.arange(g.shape[1]) // 8 * 8, :]
    return ((f64(g) - first).astype(g.dtype),)


# --- session 12, s12-ellipsis: `...` in indices, comprehensions unrolled --------------------


def ref_ellipsis_index(x, w):
    # ellipsis_index.py: out = x * w + x[0] over a batch of matrices; firsts = x[..., 0]
    v = f64(x)
    prod = (v * f64(w)[None, None, :]).astype(x.dtype)  # rounded as the kernel's tile product
    return ((f64(prod) + v[0][None]).astype(x.dtype), x[:, :, 0].copy())


def ref_ellipsis_grid(src, dst):
    # ellipsis_grid.py: dst's column i is i + 1, src's twice that; the last matrix of src then
    # gains 0.5 (both in place, returned as (src, dst))
    b, m, n = src.shape
    cols = np.broadcast_to(np.arange(n, dtype=np.float64) + 1.0, (b, m, n))
    new_dst = cols.astype(dst.dtype)
    new_src = (2.0 * f64(new_dst)).astype(src.dtype)
    new_src[b - 1] = (f64(new_src[b - 1]) + 0.5).astype(src.dtype)
    return (new_src, new_dst)


def ref_unrolled_lists(x, y):
    # unrolled_lists.py: the lists as Python makes them, summed in float32 order-free (float64)
    xv, yv = f64(x.astype(np.float32)), f64(y.astype(np.float32))
    acc = np.zeros_like(xv)
    for w in [w * 0.5 for w in (1, 2, 3)]:
        acc += xv * w
    for a, b in [(1, 2), (3, -1)]:
        acc += a * xv - b * yv
    for s in (1, 2, 3):
        acc += xv * s
    for c in [p * q for p in (1, 2) for q in (3, -1)]:
        acc += c * yv
    acc += xv + yv
    for i, m in enumerate((2, 3)):
        acc += (i * m) * yv
    factors = {k: k * 2 for k in range(1, 3)}
    acc += xv * factors[2] - yv * factors[1] + 0.5 * xv
    return (acc.astype(x.dtype),)

# --- session 12, s12-hostreads: tensor elements read in host code (`end[0]`, `.item()`) ------


def bound_below(name: str, axis: int):
    """A [1] int tensor holding a bound in [shape_of(name)[axis] // 2, shape_of(name)[axis]],
    `name` generated earlier in the same call (seldom a multiple of a block)."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the bound"
        n = bound[axis]
        return np.full(shape, rng.integers(n // 2, n + 1)).astype(dtype)

    return generate


def window_below(name: str, axis: int):
    """A [2] int tensor (begin, end), 0 <= begin <= end <= shape_of(name)[axis], `name`
    generated earlier in the same call: begin inside the first half, end in the second."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the window"
        n = bound[axis]
        return np.array([rng.integers(0, n // 2 + 1), rng.integers(n // 2, n + 1)]).astype(dtype)

    return generate


def offsets_within(name: str, axis: int):
    """Sorted int offsets from 0 to a last one in [shape_of(name)[axis] // 2,
    shape_of(name)[axis]], `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the offsets"
        last = int(rng.integers(bound[axis] // 2, bound[axis] + 1))
        cuts = sorted(int(c) for c in rng.integers(0, last + 1, size=shape[0] - 2))
        return np.array([0] + cuts + [last]).astype(dtype)

    return generate


def ref_bounded_row_sum(x, end):
    # bounded_row_sum.py: float32 sums of each row's first end[0] elements
    return (f64(x)[:, : int(end[0])].sum(axis=1).astype(np.float32),)


def ref_window_row_sum(x, bounds):
    # window_row_sum.py: float32 sums of each row's columns bounds[0] to bounds[1]
    return (f64(x)[:, int(bounds[0]) : int(bounds[1])].sum(axis=1).astype(np.float32),)


def ref_item_scale(x, scale, bias):
    # item_scale.py: x * scale + bias[-1] in float32, cast to x's dtype
    return ((f64(x) * float(scale) + float(bias[-1])).astype(x.dtype),)


def ref_item_sized_rows(x, offsets):
    # item_sized_rows.py: twice the first offsets[-1] rows of x
    return ((2 * f64(x)[: int(offsets[-1])]).astype(x.dtype),)

# --- session 12, s12-window --------------------------------------------------------------------
# row_window_store.py: a window of 8 rows stored into a tile of rows (block 8)


def ref_row_window_store(x):
    return ((2 * f64(x) + 1).astype(x.dtype),)


# group_scatter.py: row scatters from an inner loop of an `hl.grid` over groups


def ref_group_scatter(x, ids, per=4):
    out = np.zeros(x.shape)
    for g in range(ids.shape[0] // per):
        rows = np.asarray(ids[g * per : (g + 1) * per])
        out[rows] = f64(x)[rows] * (g + 1)
    return (out.astype(x.dtype),)


# block_size_names.py: `block_m, block_n = v.size()` as sizes, `.squeeze(0)` of a tile's dimension


def ref_block_size_names(x, keep):
    return (np.where((np.asarray(keep) != 0)[:, None], f64(x), 0.0).astype(x.dtype),)

# --- session 12, s12-forms: `hl.grid(begin, end, step)` ------------------------------------


def ref_grid_steps(x):
    # grid_steps.py: 2 x + j at rows 1, 3, ... and columns 0, 3, ...; zeros elsewhere
    v = f64(x)
    out = np.zeros_like(v)
    out[1::2, 0::3] = 2 * v[1::2, 0::3] + np.arange(0, x.shape[1], 3)[None, :]
    return (out.astype(x.dtype),)


def ref_inner_grid_steps(x, stride=4):
    # inner_grid_steps.py: x[i, j] - x[i, 0] at columns 0, stride, ...; zeros elsewhere
    v = f64(x)
    out = np.zeros_like(v)
    out[:, ::stride] = v[:, ::stride] - v[:, :1]
    return (out.astype(x.dtype),)


def ref_chained_view_bias(x, bias=None):
    # chained_view_bias.py: 2 x (+ bias along the rows), flattened
    v = 2 * f64(x)
    if bias is not None:
        v = v + f64(bias)[None, :]
    return (v.reshape(-1).astype(x.dtype),)


# --- session 12, s12-refgap: a registered block's partial last tile in the reference ----------


def ref_block_row_sums(x):
    # block_row_sums.py: each column's sum, in float32
    return (f64(x).sum(axis=0).astype(np.float32),)


def whole_or_three_quarters(name: str, axis: int):
    """A [1] int tensor holding shape_of(name)[axis] where 128 divides it (so every lane block
    divides the bound), else three quarters of it (a partial last tile for every block, the
    reference's too), `name` generated earlier in the same call."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen.pop(name, None)
        assert bound is not None, f"the shapes line must list `{name}` before the bound"
        n = bound[axis]
        return np.full(shape, n if n % 128 == 0 else 3 * n // 4).astype(dtype)

    return generate


def ref_bounded_block_lanes(x, end):
    # bounded_block_lanes.py: float32 sums of each row's first end[0] elements
    return (f64(x)[:, : int(end[0])].sum(axis=1).astype(np.float32),)


# --- session 13, s13-hostonly: a kernel without a device loop ----------------------------------


def ref_host_only(x, y, eps):
    # host_only.py: x as it is, and (x + y) * 0.5 + eps in the promoted dtype (a Python float
    # does not widen it)
    dtype = torch_promote(x.dtype, y.dtype)
    return x, ((f64(x) + f64(y)) * 0.5 + eps).astype(dtype)

# --- session 13, s13-scatter: scatter-adds through a tile of indices (hl.atomic_add) ---------


def ref_scatter_add_rows(table, values, ids):
    # scatter_add_rows.py: every row of values added into table's row ids[i], in place;
    # repeated ids all add
    out = f64(table).copy()
    np.add.at(out, ids.astype(np.int64), f64(values))
    return (out.astype(table.dtype),)


def ref_bin_totals(weights, ids, totals, counts):
    # bin_totals.py: totals[ids[i]] += weights[i], counts[ids[i]] += 1, in place, repeats add
    t = f64(totals).copy()
    np.add.at(t, ids.astype(np.int64), f64(weights))
    c = counts.astype(np.int64).copy()
    np.add.at(c, ids.astype(np.int64), 1)
    return (t.astype(totals.dtype), c.astype(counts.dtype))


def ref_arange_scatter_add(x):
    # arange_scatter_add.py: float32 column sums, rounded to x's dtype at out[16:] (one block
    # of rows at a time: a bf16 out rounds once per block), exactly at spread[::2]
    m, n = x.shape
    sums = f64(x).sum(axis=0)
    out = np.zeros(n + 16)
    out[16:] = sums
    spread = np.zeros(2 * n)
    spread[::2] = sums
    return (out.astype(x.dtype), spread.astype(np.float32))


def ref_embedding_grad(dout, ids, vocab):
    # embedding_grad.py: zeros of vocab's shape with every row of dout added at its id
    out = np.zeros(vocab.shape)
    np.add.at(out, ids.astype(np.int64), f64(dout))
    return (out.astype(vocab.dtype),)


def index_into(name: str, axis: int, distinct: bool):
    """Integers in [0, shape_of(name)[axis]), `name` generated earlier in the same call (kept
    for the other index tensors of the call): distinct in random order, or uniform with
    repeats."""

    def generate(rng, shape, dtype):
        bound = _shapes_seen[name][axis]
        if distinct:
            return rng.permutation(bound)[: shape[0]].astype(dtype)
        return rng.integers(0, bound, size=shape).astype(dtype)

    return generate


def ref_cartesian_scatter(acc, values, rows, cols, rrows, rcols):
    # cartesian_scatter.py: the positive values at the cartesian product of rows and cols
    # (distinct) in ones; added at the product of rrows and rcols (repeats add) into acc, in
    # place
    out = np.ones(acc.shape)
    v = f64(values)
    out[np.ix_(rows.astype(np.int64), cols.astype(np.int64))] = np.where(v > 0, v, 1.0)
    a = f64(acc).copy()
    np.add.at(a, (rrows.astype(np.int64)[:, None], rcols.astype(np.int64)[None, :]), f64(values))
    return (out.astype(acc.dtype), a.astype(acc.dtype))

# --- s13-nested: paired_tile_sum.py: two loops' tiles over one range, paired row by row --------
def ref_paired_tile_sum(x, y, offsets, block=16):
    # every pair of blocks (a, b) of a segment, counted from its start: row start + a*block + r
    # of x times row start + b*block + r of y, rows at or past the segment's end counting 0
    x, y = f64(x), f64(y)
    out = np.zeros((len(offsets) - 1,) + x.shape[1:])
    for g in range(len(offsets) - 1):
        start, end = int(offsets[g]), int(offsets[g + 1])
        for a in range(start, end, block):
            for b in range(start, end, block):
                rows = min(end - a, end - b, block)
                out[g] += (x[a:a + rows] * y[b:b + rows]).sum(axis=0)
    return (out.astype(np.float32),)

# ---- branch s13-pairs: views of a tile's block in groups (`tile.block_size // 2`) ----


def ref_pair_butterfly(x):
    # pair_butterfly.py: each neighbouring pair (a, b) of a row -> (a + b, a - b), in float32
    v = f64(x).astype(np.float32).astype(np.float64)
    a, b = v[:, 0::2], v[:, 1::2]
    return (np.stack([a + b, a - b], axis=-1).reshape(x.shape).astype(x.dtype),)


def ref_group4_mix(x, weight):
    # group4_mix.py: the float32 product of x and each weight[h], each group of four
    # neighbouring columns plus its total
    p = np.einsum("mk,hkd->hmd", f64(x), f64(weight))
    h, m, d = p.shape
    g = p.reshape(h, m, d // 4, 4)
    return ((g + g.sum(-1, keepdims=True)).reshape(h, m, d).astype(x.dtype),)


def ref_row_pair_swap(x):
    # row_pair_swap.py: the rows 2i and 2i + 1 of the leading axis swapped
    h = x.shape[0]
    return (x.reshape(h // 2, 2, *x.shape[1:])[:, ::-1].reshape(x.shape),)

# --- session 13, s13-callables: callable parameters passed at run time -----------------------
# The callables are arguments of the kernels (SampleSpec.scalars), so they are JAX code; each
# has a numpy twin that the references use.

import jax.numpy as _jnp  # noqa: E402 - the callables the samples are given are JAX code

_CALLABLE_BIAS = _jnp.asarray(np.random.default_rng(13).standard_normal(4096), _jnp.bfloat16)


def mm_add(acc, a, b):
    """test_dot's mm_func: acc + a @ b in float32."""
    return acc + _jnp.dot(a, b, preferred_element_type=_jnp.float32)


def mm_add_scaled(acc, a, b):
    """A second mm_func: acc + 0.5 * (a @ b)."""
    return acc + 0.5 * _jnp.dot(a, b, preferred_element_type=_jnp.float32)


def tail_column_index(acc, tiles):
    """Adds each element's column index (the column tile's `index`)."""
    return acc + tiles[1].index[None, :]


def bias_epilogue(acc, tile):
    """test_pallas matmul_custom's epilogue: reads an array it closes over, at the tile."""
    return acc + _CALLABLE_BIAS[tile[1]]


def relu_epilogue(acc, tile):
    """An epilogue that closes over nothing and ignores the tiles."""
    return _jnp.maximum(acc, 0.0)


def fill_index_difference(tile_m, tile_n, dtype):
    """test_rng's rng_func form: a value of the tiles' shape in `dtype`."""
    return (tile_m.index[:, None] - tile_n.index[None, :]).astype(dtype)


def ref_callable_mm(x, y, mm_func, tail):
    scale = {mm_add: 1.0, mm_add_scaled: 0.5}[mm_func]
    assert tail is tail_column_index
    n = y.shape[1]
    return ((2.0 * (scale * (f64(x) @ f64(y)) + np.arange(n)[None, :])).astype(np.float32),)


def ref_callable_epilogue(x, y, epilogue):
    product = f64(x) @ f64(y)
    if epilogue is bias_epilogue:
        result = product + f64(np.asarray(_CALLABLE_BIAS.astype(_jnp.float32)))[None, : y.shape[1]]
    else:
        assert epilogue is relu_epilogue
        result = np.maximum(product, 0.0)
    return (result.astype(x.dtype),)


def ref_callable_fill(x, fill):
    assert fill is fill_index_difference
    m, n = x.shape
    out = f64(x) + (np.arange(m)[:, None] - np.arange(n)[None, :])
    out[:1] = 0  # the loop starts at row 1
    return (out.astype(x.dtype),)


SAMPLES: tuple[SampleSpec, ...] = (
    SampleSpec(
        name="live_row_if",
        kernel="live_row_if",
        configs={"none": ()},
        reference=ref_live_row_if,
        extra_shapes=("x=5x2x128:f32", "x=3x2x128:f32", "x=2x2x128:f32"),
        loop_types=(("grid", "unroll"), ("unroll", "unroll")),
        tolerance={BFLOAT16: (1e-2, 5e-2)},
    ),
    SampleSpec(
        name="live_row_windows",
        kernel="live_row_windows",
        # the tokens' tile: a block of 1 (every block partial for the pair loop), 4, 8
        configs={"b4": (4,), "b1": (1,), "b8": (8,)},
        reference=ref_live_row_windows,
        extra_shapes=("x=3x2x128:f32", "x=1x2x128:f32", "x=6x2x128:f32"),
        # the outer loop as grid axis or unrolled; the row loops tile no input
        loop_types=(("grid", "unroll", "unroll"), ("unroll", "unroll", "unroll")),
        refused_loop_types=(("emit_pipeline", "unroll", "unroll"),),
        # the tokens' tile (the rows of x that the inner loops window)
        inner_dims=((0, "x", 0),),
        tolerance={BFLOAT16: (1e-2, 5e-2)},
    ),
    SampleSpec(
        name="fixed_row_windows",
        kernel="fixed_row_windows",
        configs={"none": ()},
        reference=ref_fixed_row_windows,
        extra_shapes=("x=4x2x256:f32", "x=12x2x300:f32"),
        loop_types=(("grid",), ("unroll",), ("emit_pipeline",), ("fori_loop",)),
        tolerance={BFLOAT16: (1e-2, 5e-2)},
    ),
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
            # 8-bit inputs (blocks of 32 rows) promoted to float32 and to float16
            "x=64x256:i8,y=64x256:f32",
            "x=40x130:u8,y=130:f16",
        ),
    ),
    SampleSpec(
        name="local_config",
        kernel="scale_add",
        # the no-config default is the decorator's cfg, (16, 128)
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_local_scale_add,
        extra_shapes=("x=7x5:f32,y=7x5:f32", "x=1x129:bf16,y=1x129:bf16"),
    ),
    SampleSpec(
        name="helper_calls",
        kernel="helper_gelu",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_helper_gelu,
        extra_shapes=("x=7x5:f32,bias=5:f32", "x=1x129:f32,bias=129:f32"),
    ),
    SampleSpec(
        name="dtype_branch",
        kernel="dtype_add",
        configs={"b8x128": (8, 128), "b32x512": (32, 512)},
        reference=ref_dtype_add,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x129:bf16,y=9x129:bf16"),
    ),
    SampleSpec(
        name="float_size",
        kernel="row_mean_scaled",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_row_mean_scaled,
        extra_shapes=("x=1x1:f32", "x=9x129:f32"),
        tolerance=SUM_TOLERANCE,
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
    SampleSpec(
        name="softmax",
        kernel="softmax",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_softmax,
        extra_shapes=("x=1x1:f32", "x=7x5:bf16", "x=37x130:f16"),
        tolerance=SOFTMAX_TOLERANCE,
    ),
    SampleSpec(
        name="softmax_decomposed",
        kernel="softmax_decomposed",
        configs={"b8": (8,), "b64": (64,)},
        reference=ref_softmax,
        extra_shapes=("x=3x1:f32", "x=9x129:bf16"),
        tolerance=SOFTMAX_TOLERANCE,
    ),
    SampleSpec(
        name="log_softmax",
        kernel="log_softmax",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_log_softmax,
        extra_shapes=("x=5x2:bf16",),
    ),
    SampleSpec(
        name="rms_norm",
        kernel="rms_norm_fwd",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_rms_norm_fwd,
        scalars=({}, {"eps": 1e-3}),
        extra_shapes=("x=3x7:bf16,weight=7:bf16",),
    ),
    SampleSpec(
        name="viewed_row_sum",
        kernel="viewed_row_sum",
        configs={"b8": (8,), "b64": (64,)},
        reference=ref_viewed_row_sum,
        extra_shapes=("x_in=1x1x1:f32", "x_in=2x3x9x129:bf16"),
        tolerance=SUM_TOLERANCE,
        notes="an allocation axis named by a specialised size of a trace-time-rank tensor; "
        "a slice of its shape on the host",
    ),
    SampleSpec(
        name="row_sum",
        kernel="sum_kernel",
        configs={"b8": (8,), "b64": (64,)},
        reference=ref_row_sum,
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
        tolerance=SUM_TOLERANCE,
    ),
    SampleSpec(
        name="row_mean",
        kernel="row_mean",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_row_mean,
        extra_shapes=("x=9x129:bf16",),
    ),
    SampleSpec(
        name="col_sum",
        kernel="col_sum",
        # one tile over the columns: the blocks are lane-wide
        configs={"b128": (128,), "b512": (512,)},
        reference=ref_col_sum,
        extra_shapes=("x=1x1:f32", "x=129x9:bf16"),
        tolerance=SUM_TOLERANCE,
    ),
    SampleSpec(
        name="softmax_3d",
        kernel="softmax_3d",
        configs={"b1x8": (1, 8), "b2x32": (2, 32)},
        reference=ref_softmax,
        extra_shapes=("x=1x1x1:f32", "x=3x9x129:bf16"),
        tolerance=SOFTMAX_TOLERANCE,
    ),
    SampleSpec(
        name="layer_norm",
        kernel="layer_norm",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_layer_norm,
        scalars=({}, {"eps": 1e-3}),
        extra_shapes=("x=3x7:f32,weight=7:f32,bias=7:f32",),
    ),
    SampleSpec(
        name="layer_norm_stats",
        kernel="layer_norm_fwd",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_layer_norm_fwd,
        scalars=({}, {"eps": 1e-3}),
        extra_shapes=("x=3x7:bf16,weight=7:bf16",),
    ),
    SampleSpec(
        name="cross_entropy",
        kernel="cross_entropy",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_cross_entropy,
        inputs={"logits": remember_shape("logits"), "labels": indices_below("logits", 1)},
        extra_shapes=("logits=1x1:f32,labels=1:i32", "logits=9x129:bf16,labels=9:i32"),
    ),
    SampleSpec(
        name="cross_entropy_gather",
        kernel="cross_entropy",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_cross_entropy_gather,
        inputs={"logits": remember_shape("logits"), "labels": indices_below("logits", 1)},
        extra_shapes=("logits=9x129:f32,labels=9:i32",),
    ),
    SampleSpec(
        name="embedding",
        kernel="embedding",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_embedding,
        inputs={"weight": remember_shape("weight"), "x": indices_below("weight", 0)},
        # tables over 2048 rows copy their rows by DMA, smaller ones use the one-hot
        # (test_gather_dma.py forces each path on the others)
        extra_shapes=("weight=1x1:f32,x=1x1:i32", "weight=5x130:bf16,x=2x9:i32", "weight=40x130:f16,x=3x9:i32"),
    ),
    SampleSpec(
        name="same_shape_mul",
        kernel="same_shape_mul",
        configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},
        reference=ref_same_shape_mul,
        extra_shapes=("a=7:f32,b=7:f32", "a=3x9x129:f32,b=3x9x129:f32"),
    ),
    SampleSpec(
        name="offset_rows",
        kernel="offset_rows",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_offset_rows,
        scalars=({}, {"shift": 1}),
        extra_shapes=("x=4x1:f32", "x=13x130:bf16"),
    ),
    SampleSpec(
        name="grid_axpy",
        kernel="grid_axpy",
        # hl.grid(x.size()) runs as hl.tile(x.size()): right-aligned block sizes
        configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},
        reference=ref_grid_axpy,
        scalars=({}, {"alpha": -0.5}),
        extra_shapes=("x=7:f32,y=7:f32", "x=3x9x129:f32,y=3x9x129:f32"),
    ),
    SampleSpec(
        name="gather_states",
        kernel="gather_states",
        configs={"b8": (8,), "b128": (128,)},
        reference=ref_gather_states,
        inputs={"states": remember_shape("states"), "slots": indices_below("states", 0)},
        extra_shapes=("states=1x1x1x1:f32,slots=1:i32", "states=5x2x3x9:bf16,slots=13:i32"),
    ),
    SampleSpec(
        name="gather_pairs",
        kernel="gather_pairs",
        configs={"b8x8x128": (8, 8, 128), "b2x16x256": (2, 16, 256)},
        reference=ref_gather_pairs,
        inputs={"weight": remember_shape("weight"), "ids": indices_below("weight", 0)},
        extra_shapes=("weight=1x1:f32,ids=1x1:i32", "weight=5x130:bf16,ids=3x9:i32"),
    ),
    SampleSpec(
        name="gather_middle",
        kernel="gather_middle",
        configs={"b8x8": (8, 8), "b1x128": (1, 128)},
        reference=ref_gather_middle,
        inputs={"x": remember_shape("x"), "channels": indices_below("x", 1)},
        extra_shapes=("x=1x1x2:f32,channels=1:i32", "x=3x5x2:f32,channels=9:i32"),
    ),
    SampleSpec(
        name="column_halves",
        kernel="column_halves",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_column_halves,
        extra_shapes=("x=1x1:f32", "x=9x129:f32"),
    ),
    SampleSpec(
        name="neighbour_diff",
        kernel="neighbour_diff",
        configs={"b8": (8,), "b64": (64,)},
        reference=ref_neighbour_diff,
        extra_shapes=("x=9x2:f32", "x=16x5:f32"),
    ),
    SampleSpec(
        name="top_rows",
        kernel="top_rows",
        configs={"b128": (128,), "b256": (256,)},
        reference=ref_top_rows,
        scalars=({}, {"scale": -0.5}),
        extra_shapes=("x=1x1:f32", "x=9x129:f32"),
    ),
    SampleSpec(
        name="tail_sum",
        kernel="tail_sum",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_tail_sum,
        extra_shapes=("x=1x1x2:f32", "x=9x129x3:f32", "x=16x256x2:f32"),
        tolerance=SUM_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((1, "x", 1),),
    ),
    SampleSpec(
        name="concat_scaled",
        kernel="concat_scaled",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_concat_scaled,
        extra_shapes=("a=9x129:f32,b=9x1:f32", "a=16x3:f32,b=16x2:f32"),
    ),
    SampleSpec(
        name="first_column_scale",
        kernel="first_column_scale",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_first_column_scale,
        # rows start away from 0, so the division is well conditioned
        inputs={"x": uniform(0.5, 2.0), "scale": uniform(0.5, 2.0)},
        extra_shapes=("x=9x129:f32,scale=1:f32",),
    ),
    SampleSpec(
        name="row_max",
        kernel="row_max",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_row_max,
        # all-negative rows: a padding 0 must never be the maximum
        inputs={"x": uniform(-4.0, -0.5)},
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    ),
    SampleSpec(
        name="tril",
        kernel="tril",
        # square and oblong blocks, so block rows and columns start at different indices
        configs={"b8x128": (8, 128), "b32x256": (32, 256), "b256x128": (256, 128)},
        reference=ref_tril,
        extra_shapes=("x=1x1:f32", "x=9x129:bf16", "x=130x7:f32"),
    ),
    SampleSpec(
        name="soft_argmax",
        kernel="soft_argmax",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_soft_argmax,
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
        # values up to the row length (~1000): an f32 sum of that many weighted positions
        tolerance={np.dtype(np.float32): (1e-5, 1e-3)},
    ),
    SampleSpec(
        name="row_center",
        kernel="row_center",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_row_center,
        extra_shapes=("x=1x1:f32,w=1:f32", "x=9x129:bf16,w=9:bf16"),
        tolerance=SUM_TOLERANCE,
    ),
    SampleSpec(
        name="cross_entropy_pick",
        kernel="cross_entropy_pick",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_cross_entropy_pick,
        inputs={"logits": remember_shape("logits"), "labels": indices_below("logits", 1)},
        extra_shapes=("logits=1x1:f32,labels=1:i32", "logits=9x129:bf16,labels=9:i32"),
    ),
    SampleSpec(
        name="matmul_whole_k",
        kernel="matmul",
        configs={"b8x128": (8, 128), "b64x256": (64, 256)},
        reference=ref_matmul,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=5x3:bf16", "x=9x130:f32,y=130x129:f32"),
        tolerance=PRODUCT_TOLERANCE,
    ),
    SampleSpec(
        name="linear_relu_whole_k",
        kernel="linear_relu",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_linear_relu,
        extra_shapes=("x=1x1:f32,w=1x1:f32,bias=1:f32", "x=9x130:bf16,w=129x130:bf16,bias=129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
    ),
    SampleSpec(
        name="block_diag_matmul",
        kernel="block_diag_matmul",
        # block_size=[None, 128]: one tunable block size (rows). The contracted dimension is the
        # column tile itself, whose last block is partial when n % 128 != 0: its padding (NaN in
        # the interpreter) must be masked out of the sums.
        configs={"b8": (8,), "b64": (64,)},
        reference=ref_block_diag_matmul,
        extra_shapes=("x=1x1:f32,w=1x1:f32", "x=9x130:bf16,w=130x130:bf16", "x=20x257:f32,w=257x257:f32"),
        tolerance=PRODUCT_TOLERANCE,
    ),
    SampleSpec(
        name="bmm_whole_k",
        kernel="attention_scores",
        # block sizes for the batch, m and n tiles
        configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
        reference=ref_attention_scores,
        scalars=({}, {"scale": 0.5}),
        extra_shapes=("q=1x1x1:f32,k=1x1x1:f32", "q=3x9x16:bf16,k=3x129x16:bf16"),
        tolerance=PRODUCT_TOLERANCE,
    ),
    # --- inner loops (issue 4) ---
    SampleSpec(
        name="softmax_two_pass",
        kernel="softmax_two_pass",
        configs={"b8x128": (8, 128), "b16x512": (16, 512)},
        reference=ref_softmax,
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
        tolerance=SOFTMAX_TOLERANCE,
        # two sibling loops over the columns; the second stores, so it runs in-kernel
        loop_types=(("unroll", "unroll"), ("grid", "unroll"), ("emit_pipeline", "unroll"), ("fori_loop", "unroll")),
        refused_loop_types=(("unroll", "grid"), ("unroll", "emit_pipeline"), ("unroll", "fori_loop")),
        inner_dims=((1, "x", 1),),
    ),
    SampleSpec(
        name="softmax_bwd",
        kernel="softmax_bwd",
        # one block size per loop: rows, then each of the two column loops
        configs={"b8x128x128": (8, 128, 128), "b16x512x256": (16, 512, 256)},
        reference=ref_softmax_bwd,
        inputs={"softmax_output": softmax_rows},
        extra_shapes=("grad_output=1x1:f32,softmax_output=1x1:f32", "grad_output=9x129:bf16,softmax_output=9x129:bf16"),
        # the result is ~y ~ 1/n: relative, as for the softmaxes (bf16 products summed in f32)
        tolerance=SOFTMAX_TOLERANCE,
        loop_types=(("unroll", "unroll"), ("grid", "unroll"), ("emit_pipeline", "unroll"), ("fori_loop", "unroll")),
        refused_loop_types=(("unroll", "grid"), ("unroll", "emit_pipeline"), ("unroll", "fori_loop")),
        inner_dims=((1, "grad_output", 1), (2, "grad_output", 1)),
    ),
    SampleSpec(
        name="matmul",
        kernel="matmul",
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_matmul,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "x", 1),),
    ),
    SampleSpec(
        name="matmul_upcast",
        kernel="matmul_upcast",
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_matmul_upcast,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "x", 1),),
    ),
    SampleSpec(
        name="matmul_bias_relu",
        kernel="matmul_bias_relu",
        configs={"b8x128x128": (8, 128, 128), "b32x256x256": (32, 256, 256)},
        reference=ref_matmul_bias_relu,
        extra_shapes=("x=1x1:f32,y=1x1:f32,bias=1:f32", "x=9x130:bf16,y=130x129:bf16,bias=129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "x", 1),),
    ),
    SampleSpec(
        name="bmm",
        kernel="bmm",
        # batch, m, n, then the inner k loop
        configs={"b1x8x128x128": (1, 8, 128, 128), "b2x32x128x256": (2, 32, 128, 256)},
        reference=ref_bmm,
        extra_shapes=("A=1x1x1:f32,B=1x1x1:f32", "A=3x9x130:bf16,B=3x130x17:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((3, "A", 2),),
    ),
    SampleSpec(
        name="attention",
        kernel="attention_output",
        # batch * heads, queries, then the inner loop's keys
        configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
        reference=ref_attention_output,
        extra_shapes=("q_in=1x1x1x8:f32,k_in=1x1x1x8:f32,v_in=1x1x1x8:f32", "q_in=3x9x16:bf16,k_in=3x130x16:bf16,v_in=3x130x16:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "k_in", -2),),
    ),
    SampleSpec(
        name="causal_attention",
        kernel="causal_attention_output",
        configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
        reference=ref_causal_attention_output,
        extra_shapes=("q_in=1x1x1x8:f32,k_in=1x1x1x8:f32,v_in=1x1x1x8:f32", "q_in=3x9x16:bf16,k_in=3x130x16:bf16,v_in=3x130x16:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "k_in", -2),),
    ),
    SampleSpec(
        name="attention_lse",
        kernel="attention",
        configs={"b1x8x128": (1, 8, 128), "b2x32x256": (2, 32, 256)},
        reference=ref_attention_lse,
        # float32 only, see attention_lse.shapes (bf16: pending/attention_lse_bf16.py)
        notes="float32 only: bf16 * Python float rounds the float (pending/scalar_mul_bf16.py)",
        extra_shapes=("q_in=1x1x1x8:f32,k_in=1x1x1x8:f32,v_in=1x1x1x8:f32", "q_in=1x3x9x16:f32,k_in=1x3x130x16:f32,v_in=1x3x130x16:f32"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "k_in", -2),),
    ),
    SampleSpec(
        name="long_sum",
        kernel="long_sum",
        # rows, then the inner loop's columns
        configs={"b8x512": (8, 512), "b16x2048": (16, 2048)},
        reference=ref_long_sum,
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "x", 1),),
    ),
    SampleSpec(
        name="rows_from_sum",
        kernel="rows_from_sum",
        # columns, then the inner loop's rows
        configs={"b128x8": (128, 8), "b256x32": (256, 32)},
        reference=ref_rows_from_sum,
        # a start inside the first block, one on a block boundary, none, and past the end
        scalars=({"start": 3}, {"start": 8}, {}, {"start": 1000}),
        extra_shapes=("x=9x129:bf16", "x=5x7:f32"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "x", 0),),
        notes="an inner loop with a start; an empty range",
    ),
    SampleSpec(
        name="jagged_add",
        kernel="jagged_add",
        eager_reference=True,
        # the inner loop's rows
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_jagged_add,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=9x128:f32,bias=2x128:f32,offsets=3:i32",
                      "x=33x7:bf16,bias=5x7:bf16,offsets=6:i32"),
        # the loop stores (nothing to stream) and its bounds are read from a tensor (no grid)
        loop_types=(("unroll",),),
        refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((0, "x", 0),),
        notes="loop bounds read from a tensor; stores masked in place",
    ),
    SampleSpec(
        name="jagged_scale_2d",
        eager_reference=True,
        kernel="jagged_scale_2d",
        # the inner loop's rows (bounds read from offsets), then its columns
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_jagged_scale_2d,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=9x7:f32,scales=2:f32,offsets=3:i32",),
        loop_types=(("unroll",),),
        refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((0, "x", 0), (1, "x", 1)),
        notes="a 2-D inner tile mixing a bound read from a tensor with a host int",
    ),
    SampleSpec(
        name="jagged_row_sum",
        kernel="jagged_row_sum",
        eager_reference=True,
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_jagged_row_sum,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=9x128:f32,offsets=3:i32", "x=33x7:bf16,offsets=6:i32"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((0, "x", 0),),
        notes="loop bounds read from a tensor; a masked sum per segment",
    ),
    SampleSpec(
        name="jagged_exp_sum",
        kernel="jagged_exp_sum",
        eager_reference=True,
        configs={"b8k8": (8, 8), "b8k16": (8, 16)},
        reference=ref_jagged_exp_sum,
        inputs={"x": remember_shape("x"), "lengths": lengths_below("x", 1)},
        extra_shapes=("x=3x5x7:f32,lengths=3:i32",),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((1, "x", 1),),
        notes="hl.jagged_tile over a dense backing array: loads and the sum masked per row",
    ),
    SampleSpec(
        name="jagged_row_max",
        kernel="jagged_row_max",
        eager_reference=True,
        configs={"b8k128": (8, 128), "b16k256": (16, 256)},
        reference=ref_jagged_row_max,
        inputs={"x": remember_shape("x", negative), "lengths": lengths_below("x", 1)},
        extra_shapes=("x=3x5:f32,lengths=3:i32",),
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((1, "x", 1),),
        notes="a max along hl.jagged_tile: the elements past a row's end never win",
    ),
    SampleSpec(
        name="jagged_gather_sum",
        kernel="jagged_gather_sum",
        eager_reference=True,
        configs={"b8k8": (8, 8), "b16k16": (16, 16)},
        reference=ref_jagged_gather_sum,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=1:f32,offsets=2:i32",),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",),),
        refused_loop_types=(("grid",), ("fori_loop",), ("emit_pipeline",)),
        # A segment is at most x's length: calls whose x the blocks do not divide draw segments
        # of lengths the inner block does not divide (the offsets are random).
        inner_dims=((1, "x", 0),),
        notes="hl.jagged_tile gathering each row's segment through offsets",
    ),
    SampleSpec(
        name="jagged_center",
        kernel="jagged_center",
        eager_reference=True,
        configs={"b8k8": (8, 8, 8), "b16k16": (16, 16, 8)},
        reference=ref_jagged_center,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=1:f32,offsets=2:i32",),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll", "unroll"),),
        refused_loop_types=(("grid", "grid"), ("fori_loop", "fori_loop")),
        inner_dims=((1, "x", 0), (2, "x", 0)),  # as jagged_gather_sum's
        notes="hl.jagged_tile scattering through offsets: the store masked per row",
    ),
    SampleSpec(
        name="grid_elements",
        kernel="grid_elements",
        configs={"none": ()},
        reference=ref_grid_elements,
        extra_shapes=("x=1:f32,y=1:f32", "x=129:f32,y=129:f32"),
        notes="one element per hl.grid step: the whole axis resident, a lane select per store",
    ),
    SampleSpec(
        name="row_ends",
        kernel="row_ends",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_row_ends,
        extra_shapes=("x=1x1:f32", "x=9x5:f32", "x=7x129:bf16"),
        tolerance=SUM_TOLERANCE,
        notes="stores at two columns of tiled rows: rows whole in the block, old contents kept",
    ),
    SampleSpec(
        name="stacked_rows",
        kernel="stacked_rows",
        configs={"b128": (128,), "b512": (512,)},
        reference=ref_stacked_rows,
        extra_shapes=("x=1:f32,y=1:f32", "x=130:bf16,y=130:bf16"),
        simulator_call="x=1024:f32,y=1024:f32",
        notes="stores at rows 0 and 2 of one array: a sublane select, row 1 kept",
    ),
    SampleSpec(
        name="block_totals",
        kernel="block_totals",
        configs={"none": ()},
        reference=ref_block_totals,
        extra_shapes=("x=1:f32", "x=129:f32", "x=300:bf16"),
        tolerance=SUM_TOLERANCE,
        notes="out[tile.id] and marks[tile.begin] of a loop with a fixed block size",
    ),
    SampleSpec(
        name="segment_totals",
        kernel="segment_totals",
        eager_reference=True,
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_segment_totals,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=9x128:f32,offsets=3:i32", "x=33x7:bf16,offsets=6:i32"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((0, "x", 0),),
        notes="out[g] = a segment's total after an inner loop with bounds read from a tensor",
    ),
    SampleSpec(
        name="batch_begin_scale",
        kernel="batch_begin_scale",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_batch_begin_scale,
        extra_shapes=("x=1x1x1:f32,scale=1x1:f32", "x=2x9x5:bf16,scale=2x5:bf16"),
        notes="tile_b.begin of a one-element tile in the index maps",
    ),
    SampleSpec(
        name="row_scatter",
        kernel="row_scatter",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_row_scatter,
        inputs={"table": remember_shape("table"), "ids": distinct_indices_below("table", 0)},
        extra_shapes=("table=1x1:f32,values=1x1:f32,ids=1:i32",
                      "table=20x5:bf16,values=9x5:bf16,ids=9:i32"),
        simulator_call="table=64x256:f32,values=16x256:f32,ids=16:i32",
        notes="a scatter of rows through a tile of indices, in place",
    ),
    SampleSpec(
        name="slice_gaps",
        kernel="slice_gaps",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_slice_gaps,
        scalars=({"fill_tail": True}, {"fill_tail": False}),
        extra_shapes=("x=1x1:f32", "x=9x20:f32", "x=7x40:bf16"),
        notes="sliced stores that leave a gap (or, unless fill_tail, a tail): old contents kept",
    ),
    SampleSpec(
        name="prefix_row_sum",
        kernel="prefix_row_sum",
        eager_reference=True,
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_prefix_row_sum,
        inputs={"x": remember_shape("x"), "lengths": lengths_below("x", 0)},
        extra_shapes=("x=9x128:f32,lengths=3:i32", "x=33x7:bf16,lengths=2:i32"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((0, "x", 0),),
        notes="a loop end read from a tensor",
    ),
    SampleSpec(
        name="jagged_matmul",
        kernel="jagged_matmul",
        eager_reference=True,
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_jagged_matmul,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=9x128:f32,w=2x128x128:f32,offsets=3:i32",
                      "x=20x100:f32,w=3x100x7:f32,offsets=4:i32"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",),),
        refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((0, "x", 0),),
        notes="loop bounds read from a tensor; a product per segment, stored masked in place",
    ),
    SampleSpec(
        name="causal_row_sum",
        kernel="causal_row_sum",
        # rows, then the inner loop's columns (bounded by the row tile's end)
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_causal_row_sum,
        extra_shapes=("x=1x1:f32", "x=9x9:bf16"),
        tolerance=SUM_TOLERANCE,
        # no `grid`: the loop's bounds move with the outer tile
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((1, "x", 1),),
    ),
    SampleSpec(
        name="scalar_mul_bf16",
        kernel="scale_bf16",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_scale_bf16,
        scalars=({}, {"scale": 0.3}),
    ),
    SampleSpec(
        name="device_branches",
        kernel="device_branches",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_device_branches,
        scalars=({}, {"limit": 0}, {"limit": 5}),
        inputs={"flags": alternating_flags()},
        extra_shapes=("x=1x1:f32,flags=2:i32,out=1x1:f32", "x=9x129:bf16,flags=2:i32,out=9x129:bf16"),
        returns_tuple=True,
        notes="`if`/`elif`/`else` on device scalars with stores in the branches (pl.when)",
        # `out` comes in aliased (a store under a device `if` may not run)
        simulator_call="x=64x256:f32,flags=2:i32,out=64x256:f32",
    ),
    SampleSpec(
        name="python_loops",
        kernel="python_loops",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_python_loops,
        scalars=({}, {"taps": 1}, {"taps": 4}),
        extra_shapes=("x=1x1:f32,a=1x1:f32,b=1x1:f32", "x=9x129:bf16,a=9x129:bf16,b=9x129:bf16"),
        notes="`range` loops and loops over a list and a tuple of tensors, unrolled",
        # `out` comes in aliased (a loop reads it before storing it)
        simulator_call="x=256x512:f32,a=256x512:f32,b=256x512:f32",
    ),
    SampleSpec(
        name="horner",
        kernel="horner",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_horner,
        scalars=({}, {"degree": 1}, {"degree": 5}),
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
    ),
    SampleSpec(
        name="matmul_layernorm",
        kernel="matmul_layernorm",
        # rows, then the inner loop's k; n is kept whole
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_matmul_layernorm,
        extra_shapes=("x=1x1:f32,y=1x3:f32,weight=3:f32,bias=3:f32", "x=9x130:bf16,y=130x129:bf16,weight=129:bf16,bias=129:bf16"),
        # float32: the normalised values are O(1) and carry the matmul's float32 rounding
        # divided by the row's standard deviation
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "x", 1),),
    ),
    SampleSpec(
        name="unpack_one",
        kernel="scaled_copy",
        configs={"b128": (128,), "b1024": (1024,)},
        reference=ref_scaled_copy,
        scalars=({}, {"scale": -0.5}),
        extra_shapes=("x=1:f32", "x=129:bf16"),
        returns_tuple=True,
    ),
    SampleSpec(
        name="module_config",
        kernel="scaled_row_sum",
        # rows, then the inner loop's columns; the no-config default is the decorator's CONFIG
        configs={"b8x128": (8, 128), "b32x512": (32, 512)},
        reference=ref_scaled_row_sum,
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
        tolerance=SUM_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((1, "x", 1),),
    ),
    SampleSpec(
        name="tile_unpack",
        kernel="scale_add_row",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_scale_add_row,
        extra_shapes=("x=1x1:f32,row=1:f32", "x=7x5:bf16,row=5:bf16"),
    ),
    SampleSpec(
        name="static_builtins",
        kernel="first_columns",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_first_columns,
        # limits below, at and above the lane multiple: a loop over part of x's lane axis gets a
        # block legal for x's axis and for out's (passes::differing_axes)
        # (cycled over the shapes: 256x1024 gets 200, 200x300 gets 64)
        scalars=({"limit": 200}, {"limit": 64}, {}, {"limit": 128, "scale": 3.5}, {"limit": 100000}),
        extra_shapes=("x=1x1:f32", "x=7x5:bf16"),
    ),
    SampleSpec(
        name="shape_splat",
        kernel="add_plane",
        configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
        reference=ref_add_plane,
        extra_shapes=("x=1x1x1:f32,y=1x1:f32", "x=2x7x5:bf16,y=7x5:bf16"),
    ),
    SampleSpec(
        name="alloc_sizes",
        kernel="row_max_and_double",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_row_max_and_double,
        extra_shapes=("x=1x1:f32", "x=7x5:bf16"),
    ),
    SampleSpec(
        name="any_rank_unit_axes",
        kernel="add_unit_axes",
        # right-aligned over the rank, as for `add`
        configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},
        reference=ref_add_unit_axes,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=1x1:bf16"),
    ),
    SampleSpec(
        name="sorted_pair",
        kernel="sorted_pair",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_sorted_pair,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=7x5:bf16"),
    ),
    SampleSpec(
        name="add_inplace",
        kernel="add_inplace",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_add_inplace,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=7x5:bf16"),
    ),
    SampleSpec(
        name="split_k_matmul",
        kernel="split_k_matmul",
        configs={"s256b8x128x128": (256, 8, 128, 128), "s512b64x256x256": (512, 64, 256, 256)},
        reference=ref_split_k_matmul,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x300:bf16,y=300x129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        # The inner loop's bounds are the outer slice's: no fixed-length grid axis.
        refused_loop_types=(("grid",),),
        inner_dims=((3, "x", 1),),
        simulator_call="x=16x512:f32,y=512x128:f32",
        notes="hl.atomic_add from the steps of K slices: revisited output block",
    ),
    SampleSpec(
        name="tunable_split_k",
        kernel="tunable_split_k",
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_tunable_split_k,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x300:bf16,y=300x129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((2, "x", 1),),
        simulator_call="x=16x512:f32,y=512x128:f32",
        notes="hl.register_tunable (k_slices, default 2) sizing the K slices; other values: test_tunables.py",
    ),
    SampleSpec(
        name="atomic_contributions",
        kernel="atomic_contributions",
        configs={"b1x8x128": (1, 8, 128), "b4x32x256": (4, 32, 256)},
        reference=ref_atomic_contributions,
        extra_shapes=("x=1x1x1:f32", "x=7x9x130:f32"),
        # Every contribution rounds the bfloat16 block once more.
        tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
        notes="the contributing axis is written outermost: the grid runs it innermost",
    ),
    SampleSpec(
        name="atomic_max_update",
        kernel="atomic_max_update",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_atomic_max_update,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=7x5:bf16,y=7x5:bf16"),
    ),
    SampleSpec(
        name="dropout",
        kernel="dropout",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_dropout,
        # A seed above 2**32 sets the key's second word; a negative one is two's complement.
        scalars=({}, {"p": 0.25, "seed": 7}, {"p": 0.9, "seed": 2**40 + 5}, {"seed": -3}),
        extra_shapes=("x=1x1:f32", "x=9x130:f32"),
        notes="hl.rand: the same Philox numbers for every block size",
    ),
    SampleSpec(
        name="random_bins",
        kernel="random_bins",
        configs={"b128": (128,), "b1024": (1024,)},
        reference=ref_random_bins,
        scalars=({}, {"seed": 12345}, {"seed": 2**33 + 1}),
        extra_shapes=("x=1:f32", "x=129:f32"),
    ),
    SampleSpec(
        name="prefix_scans",
        kernel="prefix_scans",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_prefix_scans,
        extra_shapes=("x=1x1:f32", "x=9x7:f32", "x=3x129:f32"),
    ),
    SampleSpec(
        name="first_argmax",
        kernel="first_argmax",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_first_argmax,
        inputs={"x": small_integers},
        extra_shapes=("x=1x1:f32,labels=1x1:i32", "x=9x7:f32,labels=9x7:i32"),
    ),
    SampleSpec(
        name="long_indices",
        kernel="long_indices",
        configs={"b8": (8,), "b128": (128,)},
        reference=ref_long_indices,
        scalars=({}, {"seed": 99}),
        extra_shapes=("x=1x1:f32", "x=9x7:f32"),
    ),
    SampleSpec(
        name="implicit_noise",
        kernel="implicit_noise",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_implicit_noise,
        extra_shapes=("x=1x1:f32", "x=9x7:f32"),
    ),
    SampleSpec(
        name="accumulate_views",
        kernel="accumulate",
        configs={"b128": (128,), "b2048": (2048,)},
        reference=ref_accumulate,
        extra_shapes=("total=1:f32,x=1:f32,count=1:i32", "total=3x43:f32,x=3x43:f32,count=129:i32"),
    ),
    SampleSpec(
        name="update_and_return",
        kernel="row_sums",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_row_sums,
        extra_shapes=("x=1x1:f32,running=1:f32",),
        tolerance=SUM_TOLERANCE,
    ),
    SampleSpec(
        name="add_3d_inner",
        kernel="add_3d",
        # batch, then the inner loop's m and n (Helion's test config [1, 8, 128] first)
        configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
        reference=ref_add_3d,
        extra_shapes=("x=1x1x1:f32,y=1x1x1:f32", "x=2x9x129:bf16,y=2x9x129:bf16"),
        # the loop stores, so its inputs are not streamed
        loop_types=(("unroll",), ("grid",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "x", 1), (2, "x", 2)),
    ),
    SampleSpec(
        name="inner_2d_sum",
        kernel="batch_sum",
        configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
        reference=ref_batch_sum,
        extra_shapes=("x=1x1x1:f32", "x=2x9x129:bf16"),
        tolerance={np.dtype(np.float32): (1e-5, 1e-2)},
        # a loop over two dimensions is not streamed
        loop_types=(("unroll",), ("grid",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "x", 1), (2, "x", 2)),
    ),
    SampleSpec(
        name="matmul_unit_bias",
        kernel="matmul_bias",
        configs={"b8x128x128": (8, 128, 128), "b64x128x128": (64, 128, 128)},
        reference=ref_matmul_bias,
        extra_shapes=("x=1x1:f32,y=1x1:f32,bias=1x1:f32", "x=9x130:f32,y=130x129:f32,bias=1x129:f32"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((2, "x", 1),),
    ),
    SampleSpec(
        name="weighted_row_sum",
        kernel="weighted_row_sum",
        configs={"b8x128": (8, 128), "b32x512": (32, 512)},
        reference=ref_weighted_row_sum,
        extra_shapes=("x=1x1:f32,w=1x1:f32", "x=9x129:f32,w=9x1:f32"),
        tolerance=SUM_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((1, "x", 1),),
    ),
    SampleSpec(
        name="head_projection",
        kernel="head_projection",
        # heads, m, d, then the inner k loop
        configs={"b1x8x128x128": (1, 8, 128, 128), "b2x32x128x256": (2, 32, 128, 256)},
        reference=ref_head_projection,
        extra_shapes=("x=1x1:f32,w=1x1x1:f32", "x=9x130:bf16,w=3x130x17:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((3, "x", 1),),
    ),
    SampleSpec(
        name="clipped_window",
        kernel="clipped_window",
        configs={"b128": (128,), "b1024": (1024,)},
        reference=ref_clipped_window,
        scalars=({}, {"lo": 0, "hi": 5000}, {"lo": 130, "hi": 131}, {"lo": 900, "hi": 100}),
        extra_shapes=("x=1:f32", "x=129:f32"),
    ),
    SampleSpec(
        name="band_row_sum",
        kernel="band_row_sum",
        # the row tile, then the inner column loop
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_band_row_sum,
        scalars=({}, {"width": 0}, {"width": 1000}),
        extra_shapes=("x=1x1:f32", "x=9x129:f32"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((1, "x", 1),),
        notes="inner-loop bounds from the outer tile",
    ),
    SampleSpec(
        name="device_constructors",
        kernel="device_constructors",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_device_constructors,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x129:bf16,y=9x129:bf16"),
    ),
    SampleSpec(
        name="slab_center",
        kernel="slab_center",
        configs={"none": ()},
        reference=ref_slab_center,
        scalars=({}, {"spread": 2.0}),
        extra_shapes=("x=1x1x1:f32", "x=2x9x129:bf16"),
        tolerance=SUM_TOLERANCE,
    ),
    SampleSpec(
        name="stacked_planes",
        kernel="stacked_planes",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_stacked_planes,
        extra_shapes=("a=1x1:f32,b=1x1:f32,c=1x1:f32",),
        tolerance={BFLOAT16: (1e-2, 2e-2)},
    ),
    SampleSpec(
        name="row_pick",
        kernel="row_pick",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_row_pick,
        inputs={"x": remember_shape("x"), "index": indices_below("x", 1)},
        scalars=({}, {"scale": -0.5}),
        extra_shapes=("x=1x1:f32,index=1x1:i32", "x=3x5:f32,index=3x2:i32", "x=40x130:f16,index=40x77:i32",
                      "x=40x300:i8,index=40x77:i32"),
    ),
    SampleSpec(
        name="column_pick",
        kernel="column_pick",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_column_pick,
        inputs={"x": remember_shape("x"), "index": indices_below("x", 0)},
        extra_shapes=("x=1x1:f32,index=1x1:i32", "x=5x3:f32,index=2x3:i32", "x=9x130:bf16,index=4x130:i32"),
        notes="torch.gather of tile values along the sublane axis",
    ),
    SampleSpec(
        name="row_gate",
        kernel="row_gate",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_row_gate,
        extra_shapes=("x=1x1:f32,bias=1:f32,scale=1x1:f32",),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
    ),
    SampleSpec(
        name="debug_prints",
        kernel="debug_prints",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_debug_prints,
        extra_shapes=("x=1x1:f32",),
        tolerance={BFLOAT16: (1e-2, 2e-2)},
    ),
    SampleSpec(
        name="blend_norm",
        kernel="blend_norm",
        configs={"none": ()},
        reference=ref_blend_norm,
        scalars=({}, {"w": 0.75, "eps": 1e-3}),
        extra_shapes=("x=1x2:f32,y=1x2:f32", "x=9x129:bf16,y=9x129:bf16"),
        tolerance={BFLOAT16: (2e-2, 5e-2), np.dtype(np.float32): (1e-4, 1e-3)},
    ),
    SampleSpec(
        name="host_arithmetic",
        kernel="host_arithmetic",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_host_arithmetic,
        extra_shapes=("x=1:f32,y=1:f32", "x=7x5:f32,y=7x5:f32", "x=9x129:bf16,y=9x129:bf16"),
        notes="host arithmetic on whole tensors; contiguous strides",
    ),
    SampleSpec(
        name="host_gather",
        kernel="host_gather",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_host_gather,
        inputs={"x": remember_shape("x"), "idx": indices_below("x", 0)},
        extra_shapes=("x=1x2:f32,idx=1:i32", "x=20x136:f32,idx=3x5:i32"),
        notes="host-code gather and slice",
    ),
    SampleSpec(
        name="static_params",
        kernel="static_params",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_static_params,
        scalars=(
            {},
            {"mode": "mul"},
            {"mode": "mul", "acc_dtype": BFLOAT16},
        ),
        extra_shapes=("x=1x1:f32,flat_y=1:f32", "x=9x129:bf16,flat_y=1161:bf16"),
        notes="str, dtype and device parameters",
    ),
    # session 10, s10-blocksize
    SampleSpec(
        name="block_means",
        kernel="block_means",
        configs={"b8": (8,), "b16": (16,), "b64": (64,)},
        reference=ref_block_means,
        extra_shapes=("x=1x1:f32", "x=9x130:f32", "x=300x128:bf16"),
        tolerance=SUM_TOLERANCE,
        notes="a registered block size as a host size (cdiv), a device number and a host factor",
    ),
    SampleSpec(
        name="block_square_sums",
        kernel="block_square_sums",
        configs={"b8x8": (8, 8), "b16x8": (16, 8), "b32x16": (32, 16)},
        reference=ref_block_square_sums,
        extra_shapes=("x=1x1:f32", "x=9x130:f32", "x=300x128:bf16"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((1, "x", 0),),
        notes="per-block partials in a host array sized by a registered block size; x.new_full "
              "and x.new_zeros in device code; an inner loop over the block's range",
    ),
    # session 10, s10-params
    SampleSpec(
        name="pack_weighted_sum",
        kernel="pack_weighted_sum",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_pack_weighted_sum,
        extra_shapes=("xs.0=1x1:f32,xs.1=1x1:f32,xs.2=1x1:f32",),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="a tuple of tensors, enumerate unrolled",
    ),
    SampleSpec(
        name="pack_blend",
        kernel="pack_blend",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_pack_blend,
        extra_shapes=("pair.0=1x1:f32,pair.1=1x1:f32,gates.scale=1:f32,gates.bias=1:f32",),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="a list unpacked, a dict read by key, zip",
    ),
    SampleSpec(
        name="pack_accumulate",
        kernel="pack_accumulate",
        configs={"b128": (128,), "b512": (512,)},
        reference=ref_pack_accumulate,
        extra_shapes=("outs.0=1:f32,outs.1=1:f32,x=1:f32",),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="a list read by constant indices, two elements updated in place",
        simulator_call="outs.0=4096:f32,outs.1=4096:f32,x=4096:f32",
    ),
    SampleSpec(
        name="pack_comprehension",
        kernel="pack_comprehension",
        configs={"b128": (128,), "b512": (512,)},
        reference=ref_pack_comprehension,
        extra_shapes=("xs.0=1:f32,xs.1=1:f32",),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="comprehensions over a tuple of tensors in host code",
    ),
    SampleSpec(
        name="grid_clamp",
        kernel="grid_clamp",
        configs={"none": ()},
        reference=ref_grid_clamp,
        scalars=({}, {"lo": 0.0, "hi": 2.0}),
        extra_shapes=("values=1:f32",),
        notes="min/max of 0-d values read in an hl.grid loop",
    ),
    # session 10, s10-stores
    SampleSpec(
        name="rotate_rows",
        kernel="rotate_rows",
        configs={"none": ()},
        reference=ref_rotate_rows,
        extra_shapes=("x=1x1:f32", "x=3x5:bf16"),
        # the row loop as the grid's last axis or unrolled; it stores, so it streams nothing
        loop_types=(("grid",), ("unroll",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        notes="rows read and stored at an inner loop's position",
    ),
    SampleSpec(
        name="token_prefix_sums",
        kernel="token_prefix_sums",
        configs={"b4": (4,), "b1": (1,), "b8": (8,)},
        reference=ref_token_prefix_sums,
        extra_shapes=("x=1x1:f32,start=1x1:f32", "x=3x5:f32,start=1x5:f32"),
        loop_types=(("grid", "unroll"), ("unroll", "unroll")),
        refused_loop_types=(("emit_pipeline", "unroll"),),
        inner_dims=((0, "x", 0),),
        tolerance={BFLOAT16: (2e-2, 1e-1)},
        notes="one row stored at outer.begin + local.begin per step",
    ),
    SampleSpec(
        name="last_scale_rows",
        kernel="last_scale_rows",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_last_scale_rows,
        extra_shapes=("x=1x1:f32,out=2x1:f32,scale=1:f32", "x=5x3:f32,out=5x3:f32,scale=2:f32"),
        loop_types=(("unroll",),),
        refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((0, "x", 0),),
        notes="an inner loop short of its output's rows: masked in the resident block",
    ),
    SampleSpec(
        name="stamp_last_column",
        kernel="stamp_last_column",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_stamp_last_column,
        extra_shapes=("x=1x1:f32", "x=7x5:bf16"),
        notes="a tile and a number on one axis: the tile's store scatters",
    ),
    SampleSpec(
        name="two_halves",
        kernel="two_halves",
        configs={"b128": (128,), "b256": (256,)},
        reference=ref_two_halves,
        extra_shapes=("x=2:f32,y=2:f32", "x=3:f32,y=3:f32", "x=9:bf16,y=9:bf16"),
        notes="a tile and a shifted tile of indices on one axis: both stores scatter",
    ),
    # session 10, s10-shapes
    SampleSpec(
        name="pair_views",
        kernel="pair_views",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_pair_views,
        extra_shapes=("x=1x64:f32", "x=9x64:bf16"),
        tolerance={BFLOAT16: (1e-2, 2e-2)},
        notes="reshape splitting a whole axis into literal sizes",
        inner_dims=((0, "x", 0),),  # the tiled rows (the columns are whole)
    ),
    SampleSpec(
        name="merge_views",
        kernel="merge_views",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_merge_views,
        extra_shapes=("x=1x128x1:f32", "x=9x8x16:bf16"),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="reshape merging whole axes and splitting with a literal -1",
        inner_dims=((0, "x", 0),),  # the tiled rows (the other axes are whole)
    ),
    # session 11, s11-sizes
    SampleSpec(
        name="rotary_pairs",
        kernel="rotary_pairs",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_rotary_pairs,
        extra_shapes=("x=1x2:f32,cos=1x1:f32,sin=1x1:f32", "x=9x6:bf16,cos=9x3:bf16,sin=9x3:bf16"),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="a computed reshape size (`d // 2`), hl.split and hl.join",
        inner_dims=((0, "x", 0),),
    ),
    SampleSpec(
        name="half_fold",
        kernel="half_fold",
        configs={"b8": (8,), "b64": (64,)},
        reference=ref_half_fold,
        extra_shapes=("x=1x2:f32", "x=9x130:bf16"),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="a computed allocation size, reshape size and hl.arange length",
        inner_dims=((0, "x", 0),),
    ),
    SampleSpec(
        name="foreign_acc",
        kernel="foreign_acc",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_foreign_acc,
        extra_shapes=("a=1x1:f32,b=1x1:f32,c=1x1:f32", "a=9x130:bf16,b=130x17:bf16,c=9x17:f32"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        notes="an accumulator sized by another tensor's axis than the product's",
        inner_dims=((1, "a", 1),),
    ),
    SampleSpec(
        name="block_lane_sums",
        kernel="block_lane_sums",
        # the registered block_n (lanes), then tile_m
        configs={"b128x8": (128, 8), "b256x16": (256, 16)},
        reference=ref_block_lane_sums,
        extra_shapes=("x=1x1:f32", "x=9x129:bf16"),
        tolerance=SUM_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        notes="a registered block size as an allocation size before the loop tiling with it",
        inner_dims=((0, "x", 1),),
    ),
    SampleSpec(
        name="splat_view",
        kernel="splat_view",
        configs={"b8": (8,), "b64": (64,)},
        reference=ref_splat_view,
        extra_shapes=("x=1x1:f32", "x=2x3x9x5:bf16"),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="`*x.size()[:-1]` in a host view's sizes",
    ),
    # session 11, s11-ops
    SampleSpec(
        name="row_sorts",
        kernel="row_sorts",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_row_sorts,
        extra_shapes=("x=1x4:f32", "x=9x5:bf16", "x=16x128:f16"),
        notes="torch.sort/argsort/topk along a whole row",
    ),
    SampleSpec(
        name="edge_joins",
        kernel="edge_joins",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_edge_joins,
        scalars=({}, {"fill": 0.5}),
        extra_shapes=("x=1x8:f32", "x=9x8:bf16"),
        tolerance={BFLOAT16: (1e-2, 2e-2)},
        notes="torch.cat and F.pad of literal-size windows",
    ),
    SampleSpec(
        name="stepped_ramps",
        kernel="stepped_ramps",
        configs={"b32": (32,), "b128": (128,)},
        reference=ref_stepped_ramps,
        scalars=({}, {"squared": False}),
        extra_shapes=("x=1:f32", "x=129:bf16"),
        notes="hl.arange/torch.arange with starts and steps, .pow, a static conditional",
    ),
    # session 11, s11-joins
    SampleSpec(
        name="wide_joins",
        kernel="wide_joins",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_wide_joins,
        scalars=({}, {"fill": -2.5, "spare": 3}, {"spare": 130}),
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x5:bf16,y=9x200:bf16"),
        tolerance={BFLOAT16: (1e-2, 2e-2)},
        notes="torch.cat/F.pad along whole axes, a pad by y.size(1): joined sizes computed from sizes",
    ),
    SampleSpec(
        name="row_topk",
        kernel="row_topk",
        configs={"b8": (8,), "b16": (16,)},
        reference=ref_row_topk,
        scalars=({}, {"k": 1}, {"k": 3}),
        extra_shapes=("x=1x8:f32", "x=9x12:bf16"),
        notes="torch.topk with a k from hl.specialize and n // 2: computed widths",
    ),
    # session 11, s11-indices
    SampleSpec(
        name="kv_head_groups",
        kernel="kv_head_groups",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_kv_head_groups,
        extra_shapes=("q=1x1x1:f32,kv=1x1x1:f32", "q=6x9x5:bf16,kv=3x9x5:bf16"),
        # the inner loop stores, so it streams nothing
        loop_types=(("grid",), ("unroll",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        inner_dims=((0, "q", 1),),
        notes="an index computed in the kernel from the outer tile (h // groups) in an index map",
    ),
    SampleSpec(
        name="split_heads",
        kernel="split_heads",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_split_heads,
        scalars=({}, {"heads": 3}),
        extra_shapes=("x=6x1x1:f32", "x=6x9x5:bf16"),
        loop_types=(("grid",), ("unroll",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        inner_dims=((0, "x", 1),),
        notes="b = bh // heads, h = bh % heads of an hl.grid index in an index map",
    ),
    SampleSpec(
        name="chunk_column_offsets",
        kernel="chunk_column_offsets",
        configs={"none": ()},
        reference=ref_chunk_column_offsets,
        extra_shapes=("g=1x1x1:f32", "g=2x13x5:bf16"),
        # `out`'s blocks are revisited along the heads (its stores pick a column), so the loop
        # over rows cannot be the grid's last axis; it stores, so it streams nothing
        loop_types=(("unroll",),),
        refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
        notes="a column at an inner loop's position and a column of its tile, computed b and h",
    ),
    SampleSpec(
        name="grid_in_grid",
        kernel="grid_in_grid",
        configs={"none": ()},
        reference=ref_grid_in_grid,
        extra_shapes=("x=1x1:f32", "x=2x9:bf16"),
        tolerance={BFLOAT16: (1e-2, 5e-1)},
        # the inner hl.grid stores, so it streams nothing
        loop_types=(("grid",), ("unroll",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        notes="an inner hl.grid: tiles of one element, its index moving inside the kernel",
    ),
    SampleSpec(
        name="chunk_row_sums",
        kernel="chunk_row_sums",
        configs={"b128-k8": (128, 8), "b256-k16": (256, 16)},
        reference=ref_chunk_row_sums,
        scalars=({}, {"chunk": 6}),
        extra_shapes=("x=1x12x1x1:f32", "x=2x36x3x5:bf16"),
        tolerance={BFLOAT16: (2e-2, 1e-1)},
        # the loop over a chunk's rows (12 or 6, so blocks of 8 and 16 leave partial ones),
        # named by the sequence it walks
        inner_dims=((1, "x", 1),),
        # the window reads `x` through a gather, so no input is tiled by the loop to stream
        loop_types=(("grid",), ("unroll",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        notes="an offset window (tile_c.begin * chunk + tile_k.index) beside scalar indices",
    ),
    SampleSpec(
        name="weighted_taps",
        kernel="weighted_taps",
        configs={"b256": (256,), "b1024": (1024,)},
        reference=ref_weighted_taps,
        extra_shapes=("x=1:f32,w=1:f32", "x=130:bf16,w=2:bf16"),
        tolerance={BFLOAT16: (2e-2, 1e-1)},
        notes="w[j] of an hl.static_range index, read from SMEM",
    ),
    # session 11, s11-flow
    SampleSpec(
        name="scatter_back",
        kernel="scatter_back",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_scatter_back,
        inputs={"x": remember_shape("x"), "perm": distinct_indices_below("x", 0)},
        extra_shapes=("x=1x1:f32,perm=1:i32", "x=9x3:bf16,perm=9:i32"),
        notes="a host-code scatter, row store and element update after the launch",
    ),
    SampleSpec(
        name="last_step_zero",
        kernel="last_step_zero",
        configs={"b1x8x128": (1, 8, 128), "b2x16x256": (2, 16, 256)},
        reference=ref_last_step_zero,
        extra_shapes=("x=1x2x1:f32", "x=2x3x5:bf16", "x=2x3x300:f32"),
        loop_types=(("unroll",), ("grid",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "x", 2),),
        notes="a host store into the launch's output where its loop does not reach",
        # the simulator's lowering of an aliased output needs dividing blocks
        simulator_call="x=2x16x256:f32",
    ),
    SampleSpec(
        name="host_clear_ends",
        kernel="host_clear_ends",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_host_clear_ends,
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=3x5:bf16,y=3x5:bf16"),
        notes="host stores through a view of an updated parameter, written back",
    ),
    SampleSpec(
        name="optional_col_sums",
        kernel="optional_col_sums",
        configs={"b128x8": (128, 8), "b256x32": (256, 32)},
        reference=ref_optional_col_sums,
        scalars=({}, {"with_y": False}),
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x129:bf16,y=9x129:bf16"),
        loop_types=(("unroll",), ("grid",), ("fori_loop",), ("emit_pipeline",)),
        inner_dims=((1, "x", 0),),
        notes="a name bound on one branch of a static `if`, carried by the inner loop",
    ),
    SampleSpec(
        name="column_gemv",
        kernel="column_gemv",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_column_gemv,
        extra_shapes=("w=1x1:f32,v=1x1:f32", "w=9x130:bf16,v=130x1:bf16"),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        loop_types=(("unroll",), ("grid",), ("fori_loop",), ("emit_pipeline",)),
        inner_dims=((1, "w", 1),),
        notes="a carried [tile, 1] accumulating [tile, v.size(1)]: v.size(1) checked to be 1",
    ),
    SampleSpec(
        name="shifted_state",
        kernel="shifted_state",
        configs={"default": ()},
        reference=ref_shifted_state,
        extra_shapes=("x=1x1x1:f32,init=1x1:f32", "x=3x2x5:bf16,init=2x5:bf16"),
        loop_types=(("unroll",), ("grid",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        notes="a carried value rebound to another tensor's axes of the same lengths",
    ),
    SampleSpec(
        name="block_partial_sums",
        kernel="block_partial_sums",
        # the outer rows (registered), then the inner loop's; 24 and 16 misalign the windows
        configs={"b24x16": (24, 16), "b8x16": (8, 16), "b32x32": (32, 32)},
        reference=ref_block_partial_sums,
        extra_shapes=("x=1x1:f32", "x=9x3:bf16"),
        tolerance={BFLOAT16: (1e-2, 5e-2)},
        loop_types=(("unroll",),),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "x", 0),),
        notes="stores through windows of an inner loop starting inside its outer block",
    ),
    SampleSpec(
        name="any_rank_scratch",
        kernel="any_rank_scratch",
        configs={"b8x128": (8, 128), "b2x8x256": (2, 8, 256)},  # right-aligned over the rank
        reference=ref_any_rank_scratch,
        extra_shapes=("x=1:f32,scratch=1:f32", "x=5x3:bf16,scratch=5x3:bf16"),
        notes="a rank-polymorphic loop storing into another parameter of the loop's shape",
    ),
    # session 11, s11-lead
    SampleSpec(
        name="fp8_quantize",
        kernel="fp8_quantize",
        configs={"b8x128": (8, 128), "b64x256": (64, 256)},
        reference=ref_fp8_quantize,
        inputs={"scale": uniform(0.25, 4.0)},
        extra_shapes=("x=1x1:f32,scale=1:f32", "x=9x130:bf16,scale=9:f32"),
        notes="an 8-bit float output (torch.float8_e4m3fn)",
    ),
    SampleSpec(
        name="fp8_matmul",
        kernel="fp8_matmul",
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_fp8_matmul,
        scalars=({}, {"scale": 2.0}),
        # the kernel takes any float operands: the harness's float32 and bfloat16 calls too
        extra_shapes=("x=1x1:f8e4m3,y=1x1:f8e5m2", "x=9x130:f8e5m2,y=130x129:f8e4m3",
                      "x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
        notes="hl.dot of 8-bit float operands into a float32 accumulator",
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "x", 1),),
    ),
    SampleSpec(
        name="half_matmul",
        kernel="half_matmul",
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_half_matmul,
        scalars=({}, {"scale": 0.5}),
        extra_shapes=("x=1x1:f16,y=1x1:f16", "x=9x130:bf16,y=130x129:f16"),
        notes="float16 casts, accumulator (its scratch) and result in a kernel",
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "x", 1),),
    ),
    SampleSpec(
        name="int8_matmul",
        kernel="int8_matmul",
        # 8 rows of int8 become 32 (Mosaic's 8-bit tile)
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_int8_matmul,
        inputs={"x_scale": uniform(0.5, 2.0), "y_scale": uniform(0.5, 2.0)},
        extra_shapes=("x=1x1:i8,y=1x1:i8,x_scale=1:f32,y_scale=1:f32",
                      "x=33x130:i8,y=130x129:i8,x_scale=33:f32,y_scale=129:f32"),
        notes="hl.dot of int8 operands into an int32 accumulator; 8-bit blocks of 32 rows",
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((2, "x", 1),),
    ),
    SampleSpec(
        name="int8_matmul_whole_k",
        kernel="int8_matmul_whole_k",
        configs={"b32x128": (32, 128), "b64x256": (64, 256)},  # 8-bit rows come in 32s
        reference=ref_int8_matmul_whole_k,
        inputs={"x": full_int8_range, "y": full_int8_range},
        extra_shapes=("x=1x1:i8,y=1x1:i8", "x=9x1030:i8,y=1030x129:i8"),
        notes="hl.dot of int8 operands into an int32 accumulator, over a whole contraction",
    ),
    # session 12, s12-ellipsis
    SampleSpec(
        name="ellipsis_index",
        kernel="ellipsis_index",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_ellipsis_index,
        extra_shapes=("x=1x1x1:f32,w=1:f32", "x=2x9x130:bf16,w=130:bf16"),
        notes="`...` for leading, no and trailing axes; hl.load and host code too",
    ),
    SampleSpec(
        name="ellipsis_grid",
        kernel="ellipsis_grid",
        configs={"default": ()},
        reference=ref_ellipsis_grid,
        extra_shapes=("src=1x1x1:f32,dst=1x1x1:f32", "src=3x9x5:bf16,dst=3x9x5:bf16"),
        notes="`dst[..., i]` and `src[b - 1, ..., j]` under hl.grid, in place",
    ),
    SampleSpec(
        name="unrolled_lists",
        kernel="unrolled_lists",
        configs={"b128": (128,), "b1024": (1024,)},
        reference=ref_unrolled_lists,
        extra_shapes=("x=1:f32,y=1:f32", "x=129:bf16,y=129:bf16"),
        notes="comprehensions, list()/tuple(), for over bound lists, enumerate of a literal, a dict",
    ),
    # session 12, s12-merge
    SampleSpec(
        name="attention_heads_merged",
        kernel="attention_heads_merged",
        # batch, heads (not read: merged tiles have blocks of 1), queries, the inner loop's keys
        configs={"b1x1x64x32": (1, 1, 64, 32), "b2x4x128x256": (2, 4, 128, 256)},
        reference=ref_attention_heads_merged,
        extra_shapes=("q=1x1x1x8:f32,k=1x1x1x8:f32,v=1x1x1x8:f32", "q=3x1x9x16:bf16,k=3x1x130x16:bf16,v=3x1x130x16:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        notes="a reshape merging the batch and head tiles into the query rows",
        loop_types=(("unroll",), ("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((3, "k", 2),),
    ),
    # session 12, s12-hostreads: tensor elements read in host code
    SampleSpec(
        name="bounded_row_sum",
        kernel="bounded_row_sum",
        eager_reference=True,
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_bounded_row_sum,
        inputs={"x": remember_shape("x"), "end": bound_below("x", 1)},
        extra_shapes=("x=9x130:f32,end=1:i32", "x=3x7:bf16,end=1:i32"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((1, "x", 1),),
        notes="an inner loop bounded by `end[0]`, an element no outer tile indexes",
    ),
    SampleSpec(
        name="window_row_sum",
        kernel="window_row_sum",
        eager_reference=True,
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_window_row_sum,
        inputs={"x": remember_shape("x"), "bounds": window_below("x", 1)},
        extra_shapes=("x=9x130:f32,bounds=2:i32", "x=3x7:bf16,bounds=2:i32"),
        tolerance=SUM_TOLERANCE,
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((1, "x", 1),),
        notes="an inner loop from `bounds[0]` to `bounds[1]`, read in the kernel",
    ),
    SampleSpec(
        name="item_scale",
        kernel="item_scale",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_item_scale,
        inputs={"scale": uniform(0.5, 2.0), "bias": uniform(-1.0, 1.0)},
        extra_shapes=("x=9x130:f32,scale=:f32,bias=2:f32", "x=1x1:bf16,scale=:f32,bias=1:f32"),
        notes="`.item()` values read only in device code: loaded in the kernel",
    ),
    SampleSpec(
        name="item_sized_rows",
        kernel="item_sized_rows",
        eager_reference=True,
        host_values=True,
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_item_sized_rows,
        inputs={"x": remember_shape("x"), "offsets": offsets_within("x", 0)},
        extra_shapes=("x=9x130:f32,offsets=3:i32", "x=3x7:bf16,offsets=2:i32"),
        notes="an output sized by `.item()`: a concrete host value, refused under jax.jit",
    ),
    # session 12, s12-window
    SampleSpec(
        name="row_window_store",
        kernel="row_window_store",
        # blocks of 8 rows, the only ones the kernel's meaning holds for (another is the
        # trace-time error of tests/e2e/test_tile_windows.py), and of columns
        configs={"b8x128": (8, 128), "b8x256": (8, 256)},
        reference=ref_row_window_store,
        # 20 rows: a partial last block; 5: one block, shorter than the window
        extra_shapes=("x=5x130:f32", "x=1x1:bf16", "x=33x520:bf16"),
        notes="a window of rows (`tile_m.begin + hl.arange(8)`) stored into a tile of rows",
    ),
    SampleSpec(
        name="group_scatter",
        kernel="group_scatter",
        configs={"b8x128": (8, 128), "b2x256": (2, 256)},
        reference=ref_group_scatter,
        scalars=({"per": 4}, {"per": 8}),
        inputs={"x": remember_shape("x"), "ids": distinct_indices_below("x", 0)},
        extra_shapes=("x=8x1:f32,ids=8:i32", "x=16x520:bf16,ids=16:i32"),
        loop_types=(("unroll",),),
        # a loop of two dimensions, inside an hl.grid
        refused_loop_types=(("grid",), ("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "x", 1),),
        notes="row scatters into columns of a resident block from an inner loop (moe_matmul_ogs)",
    ),
    SampleSpec(
        name="block_size_names",
        kernel="block_size_names",
        configs={"b8x128": (8, 128), "b16x256": (16, 256), "b1x128": (1, 128)},
        reference=ref_block_size_names,
        extra_shapes=("x=1x1:f32,keep=1:i32", "x=33x129:bf16,keep=33:i32"),
        notes="a tile value's sizes as names in .view()/.expand(); .squeeze(0) of a tile's dim",
    ),
    # session 12, s12-forms
    SampleSpec(
        name="grid_steps",
        kernel="grid_steps",
        configs={"none": ()},
        reference=ref_grid_steps,
        extra_shapes=("x=2x1:f32", "x=2x4:f32", "x=5x37:bf16"),
        tolerance={BFLOAT16: (1e-2, 5e-1)},
        notes="hl.grid(begins, ends, steps): grid steps counted from 0, indices begin + k * step",
    ),
    SampleSpec(
        name="inner_grid_steps",
        kernel="inner_grid_steps",
        configs={"none": ()},
        reference=ref_inner_grid_steps,
        scalars=({}, {"stride": 3}, {"stride": 1}, {"stride": 200}),
        extra_shapes=("x=1x1:f32", "x=2x9:bf16"),
        tolerance={BFLOAT16: (1e-2, 1e-1)},
        # the inner hl.grid stores, so it streams nothing
        loop_types=(("grid",), ("unroll",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        notes="an inner hl.grid(end, step=stride) with a step known when the kernel is called",
    ),
    SampleSpec(
        name="chained_view_bias",
        kernel="chained_view_bias",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_chained_view_bias,
        extra_shapes=("x=1x1:f32,bias=1:f32", "x=9x130:bf16", "x=3x300:f32,bias=300:f32"),
        tolerance={BFLOAT16: (1e-2, 5e-2)},
        # the inner loop stores, so it streams nothing; the module holds it twice (with and
        # without bias)
        loop_types=(("grid", "grid"), ("unroll", "unroll"), ("grid", "unroll")),
        refused_loop_types=(("emit_pipeline", "grid"), ("unroll", "fori_loop")),
        inner_dims=((1, "x", 1),),
        notes="a tuple shape viewed in its statement; `bias is not None` inside an inner loop",
    ),
    # session 12, s12-refgap
    SampleSpec(
        name="block_row_sums",
        kernel="block_row_sums",
        # the registered block_m (rows, 8..32), then tile_n
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_block_row_sums,
        # 9 rows: a loop shorter than the registered block's value keeps that block (Helion's
        # value of `block_m`), its rows past the 9th masked.
        extra_shapes=("x=33x1:f32", "x=40x129:bf16", "x=9x130:f32"),
        tolerance=SUM_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((0, "x", 0),),
        notes="a registered block's partial last tile in the reference (its blocks of 32 rows)",
    ),
    SampleSpec(
        name="bounded_block_lanes",
        kernel="bounded_block_lanes",
        eager_reference=True,
        # the registered block_n (lanes), then tile_m
        configs={"b128x8": (128, 8), "b256x16": (256, 16)},
        reference=ref_bounded_block_lanes,
        inputs={"x": remember_shape("x"), "end": whole_or_three_quarters("x", 1)},
        extra_shapes=("x=9x130:f32,end=1:i32", "x=3x7:bf16,end=1:i32"),
        tolerance=SUM_TOLERANCE,
        # bounds read from a tensor: no grid
        loop_types=(("unroll",), ("emit_pipeline",), ("fori_loop",)),
        refused_loop_types=(("grid",),),
        inner_dims=((0, "x", 1),),
        notes="test_loops' data_dependent_bounds1: a registered block over `end[0]` lanes",
    ),
    # session 13, s13-hostonly
    SampleSpec(
        name="host_only",
        kernel="host_only",
        configs={"default": ()},
        reference=ref_host_only,
        scalars=({}, {"eps": 0.25}),
        extra_shapes=("x=1:f32,y=1:f32", "x=3x9x130:bf16,y=9x1:bf16"),
        host_only=True,
        notes="no hl.tile/hl.grid loop (Helion refuses it): host jnp code, no pallas_call",
    ),
)

# --- session 13 (s13-lead): a fixed block read as a number --------------------------------------


def ref_fixed_block_numbers(x):
    # fixed_block_numbers.py: row sums times 256 / 128, in float32
    return ((f64(x).sum(axis=1) * 256.0 / 128.0).astype(np.float32),)


SAMPLES += (
    SampleSpec(
        name="fixed_block_numbers",
        kernel="fixed_block_numbers",
        configs={"default": ()},
        reference=ref_fixed_block_numbers,
        extra_shapes=("x=7x129:f32", "x=16x256:bf16"),
        tolerance=SUM_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        notes="`tile.block_size` as a number under fixed blocks longer than the loop",
    ),
    # session 13, s13-scatter
    SampleSpec(
        name="scatter_add_rows",
        kernel="scatter_add_rows",
        configs={"b8x128": (8, 128), "b32x256": (32, 256)},
        reference=ref_scatter_add_rows,
        inputs={"table": remember_shape("table"), "ids": indices_below("table", 0)},
        extra_shapes=("table=1x1:f32,values=1x1:f32,ids=1:i32",
                      "table=3x5:f32,values=20x5:f32,ids=20:i32",
                      "table=4x9:bf16,values=11x9:bf16,ids=11:i32"),
        simulator_call="table=16x256:f32,values=100x256:f32,ids=100:i32",
        # Sums of up to ~40 values per row, rounded once per block in bfloat16.
        tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
        notes="hl.atomic_add through a tile of indices with repeats: a one-hot scatter-add",
    ),
    SampleSpec(
        name="bin_totals",
        kernel="bin_totals",
        configs={"b128": (128,), "b256": (256,)},
        reference=ref_bin_totals,
        inputs={"totals": remember_shape("totals"), "ids": indices_below("totals", 0)},
        extra_shapes=("weights=1:f32,totals=1:f32,ids=1:i32,counts=1:i32",
                      "weights=200:f32,totals=3:f32,ids=200:i32,counts=3:i32"),
        simulator_call="weights=1000:f32,totals=37:f32,ids=1000:i32,counts=37:i32",
        tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 2e-1)},
        notes="1-D scatter-adds, float (one-hot matmul) and int32 of a number (select-sum)",
    ),
    SampleSpec(
        name="arange_scatter_add",
        kernel="arange_scatter_add",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_arange_scatter_add,
        extra_shapes=("x=1x1:f32", "x=9x130:f32", "x=20x7:bf16"),
        tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 2e-1)},
        notes="hl.atomic_add at hl.arange(16, n + 16) and hl.arange(0, 2 * n, step=2) from every step",
    ),
    SampleSpec(
        name="cartesian_scatter",
        kernel="cartesian_scatter",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_cartesian_scatter,
        inputs={"acc": remember_shape("acc"), "rows": index_into("acc", 0, True),
                "cols": index_into("acc", 1, True), "rrows": index_into("acc", 0, False),
                "rcols": index_into("acc", 1, False)},
        extra_shapes=("acc=1x1:f32,values=1x1:f32,rows=1:i32,cols=1:i32,rrows=1:i32,rcols=1:i32",
                      "acc=5x9:f32,values=3x7:f32,rows=3:i32,cols=7:i32,rrows=3:i32,rcols=7:i32"),
        simulator_call="acc=32x256:f32,values=16x256:f32,rows=16:i32,cols=256:i32,rrows=16:i32,rcols=256:i32",
        tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
        returns_tuple=False,
        notes="two tiles of indices, one per axis of a 2-D array: a masked store (reading the old values) and a scatter-add at the cartesian product",
    ),
    SampleSpec(
        name="embedding_grad",
        kernel="embedding_grad",
        # tile_n (lanes), then the inner loop's tile_k
        configs={"b128x8": (128, 8), "b256x32": (256, 32)},
        reference=ref_embedding_grad,
        inputs={"vocab": remember_shape("vocab"), "ids": indices_below("vocab", 0)},
        extra_shapes=("dout=1x1:f32,vocab=1x1:f32,ids=1:i32",
                      "dout=45x7:f32,vocab=3x7:f32,ids=45:i32"),
        simulator_call="dout=100x256:f32,vocab=24x256:f32,ids=100:i32",
        tolerance={**SUM_TOLERANCE, BFLOAT16: (5e-2, 1e-1)},
        # the inner loop stores (a scatter-add), so it streams nothing
        loop_types=(("grid",), ("unroll",)),
        refused_loop_types=(("emit_pipeline",), ("fori_loop",)),
        inner_dims=((1, "dout", 0),),
        notes="a scatter-add from an inner loop (an embedding's gradient)",
    ),
    # --- s13-nested
    SampleSpec(
        name="paired_tile_sum",
        kernel="paired_tile_sum",
        eager_reference=True,
        configs={"fixed": ()},  # blocks of 16 fixed in the source: the result depends on them
        reference=ref_paired_tile_sum,
        inputs={"x": remember_shape("x"), "offsets": segment_offsets("x", 0)},
        extra_shapes=("x=40x2x3:f32,y=40x2x3:f32,offsets=4:i32", "x=7x8x128:bf16,y=7x8x128:bf16,offsets=3:i32"),
        tolerance=SUM_TOLERANCE,
        # tile_i holds tile_j's loop, so only tile_j streams; blocks from the loop's begin rule
        # out emit_pipeline's index maps, and bounds read from a tensor rule out grid
        loop_types=(("unroll", "unroll"), ("unroll", "fori_loop")),
        refused_loop_types=(("unroll", "emit_pipeline"), ("unroll", "grid"), ("fori_loop", "unroll")),
        notes="tiles of two loops over one range read from a tensor, paired row by row (blocks "
        "from the loop's begin); most segment starts are not multiples of the block",
    ),
    # ---- branch s13-pairs: views of a tile's block in groups ----
    SampleSpec(
        name="pair_butterfly",
        kernel="pair_butterfly",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_pair_butterfly,
        extra_shapes=("x=1x2:f32", "x=3x6:bf16"),
        tolerance={BFLOAT16: (2e-2, 5e-2)},
        notes="a view in pairs of a tile's block (`tile_d.block_size // 2, 2`), hl.split, hl.join",
    ),
    SampleSpec(
        name="group4_mix",
        kernel="group4_mix",
        # tile_h, tile_m, tile_d, then the inner tile_k
        configs={"b1x8x128x32": (1, 8, 128, 32), "b2x16x256x128": (2, 16, 256, 128)},
        reference=ref_group4_mix,
        extra_shapes=("x=1x1:f32,weight=1x1x4:f32",),
        tolerance={**PRODUCT_TOLERANCE, BFLOAT16: (2e-2, 1e-1)},
        loop_types=ALL_STRATEGIES,
        inner_dims=((3, "x", 1),),
        notes="groups of four as two axes of 2 (`tile_d.block_size // 4, 2, 2`) of a product",
    ),
    SampleSpec(
        name="row_pair_swap",
        kernel="row_pair_swap",
        configs={"b2x8x128": (2, 8, 128), "b4x16x128": (4, 16, 128)},
        reference=ref_row_pair_swap,
        extra_shapes=("x=2x1x1:f32", "x=4x3x5:bf16"),
        notes="pairs of a leading tile's rows, permuted last for hl.split and back",
    ),
    # session 13, s13-callables
    SampleSpec(
        name="callable_mm",
        kernel="callable_mm",
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_callable_mm,
        scalars=(
            {"mm_func": mm_add, "tail": tail_column_index},
            {"mm_func": mm_add_scaled, "tail": tail_column_index},
        ),
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((2, "x", 1),),
        notes="test_dot's mm_func: callables called in the kernel, tile values masked to zeros",
    ),
    SampleSpec(
        name="callable_epilogue",
        kernel="callable_epilogue",
        configs={"b8x128x128": (8, 128, 128), "b64x256x256": (64, 256, 256)},
        reference=ref_callable_epilogue,
        scalars=({"epilogue": bias_epilogue}, {"epilogue": relu_epilogue}),
        extra_shapes=("x=1x1:f32,y=1x1:f32", "x=9x130:bf16,y=130x129:bf16"),
        tolerance=PRODUCT_TOLERANCE,
        loop_types=ALL_STRATEGIES,
        inner_dims=((2, "x", 1),),
        notes="test_pallas matmul_custom: a closure over an array, applied on the host",
    ),
    SampleSpec(
        name="callable_fill",
        kernel="callable_fill",
        configs={"b8x128": (8, 128), "b16x256": (16, 256)},
        reference=ref_callable_fill,
        scalars=({"fill": fill_index_difference},),
        extra_shapes=("x=2x1:f32", "x=9x130:f32"),
        # `out` (zeros, written from row 1) is aliased: the simulator needs dividing blocks
        simulator_call="x=256x512:f32",
        notes="test_rng's rng_func(tile_m, tile_n, dtype): typed by its tiles and dtype; a loop "
        "from row 1",
    ),
)

def ref_mask_layouts(x, keep):
    # mask_layouts.py: x viewed as [m, 4, 32], NaNs as 0, negated where the group's maximum is
    # not positive or the row is not kept
    rows = f64(x).reshape(x.shape[0], 4, 32)
    clean = np.where(np.isnan(rows), 0.0, rows)
    ok = np.asarray(keep)[:, None] & (clean.max(axis=2) > 0)
    return (np.where(ok[:, :, None], clean, -clean).astype(x.dtype),)


SAMPLES += (
    SampleSpec(
        name="mask_layouts",
        kernel="mask_layouts",
        configs={"b8": (8,), "b32": (32,)},
        reference=ref_mask_layouts,
        extra_shapes=("x=1x2x64:f32,keep=1:bool", "x=9x2x64:bf16,keep=9:bool"),
        notes="masks on new last axes (of a tile's rows, a bool input, a reduction's results), "
        "isnan of narrow values, a view regrouping the minor axes",
    ),
)

SAMPLES_BY_NAME = {s.name: s for s in SAMPLES}


def calls_of(spec: SampleSpec) -> list[Call]:
    """The sidecar's calls, then the extra test-only shapes."""
    return read_shapes_file(SAMPLES_DIR / f"{spec.name}.shapes") + [parse_call(s) for s in spec.extra_shapes]
