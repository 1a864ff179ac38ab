"""Tests of the end-to-end harness itself; none of them needs helionc.

They check that the TPU-lowering helper works on the installed jax, that shape lists parse, that
the dtype rules match PyTorch's, that every sample is covered as the issue asks, and that the
numpy references are right on hand-checked values.
"""

from __future__ import annotations

import math

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from e2e_support import (
    BFLOAT16,
    SAMPLES_DIR,
    interpretable,
    kernels_in,
    lower_for_tpu,
    param_of,
    parse_call,
    parse_shapes_text,
    torch_promote,
)
from expectations import LOOP_STRATEGIES, ref_matmul
from references import SAMPLES, SAMPLES_BY_NAME, calls_of, reference_of
from sample_files import EXPECT_SUFFIX, expectation_files, sample_kernels

ref_add = reference_of("add")
ref_attention_scores = reference_of("bmm_whole_k")
ref_bias_gelu = reference_of("bias_gelu")
ref_clip_flags = reference_of("clip_flags")
ref_geglu = reference_of("mixed_dtype")
ref_linear_relu = reference_of("linear_relu_whole_k")
ref_attention_lse = reference_of("attention_lse")
ref_causal_attention_output = reference_of("causal_attention")
ref_softmax_bwd = reference_of("softmax_bwd")
ref_softplus = reference_of("softplus")

F32, F16, I32 = np.dtype(np.float32), np.dtype(np.float16), np.dtype(np.int32)


def _double(x):
    def kernel(x_ref, o_ref):
        o_ref[...] = x_ref[...] * 2

    n = x.shape[0]
    spec = pl.BlockSpec(block_shape=(256,), index_map=lambda i: (i,))
    return pl.pallas_call(
        kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        grid=(pl.cdiv(n, 256),),
        in_specs=[spec],
        out_specs=spec,
        compiler_params=pltpu.CompilerParams(dimension_semantics=("parallel",)),
        interpret=False,
    )(x)


def test_tpu_lowering_helper_works_on_this_jax():
    # A rank-1 VMEM block: lowering it consults the TPU generation, which fails on a CPU host
    # unless traced inside the abstract TPU mesh.
    text = lower_for_tpu(_double, jax.ShapeDtypeStruct((1000,), jnp.bfloat16))
    assert "tpu_custom_call" in text


def test_tpu_lowering_reports_illegal_blocks():
    def bad(x):
        spec = pl.BlockSpec(block_shape=(8, 100), index_map=lambda i, j: (i, j))
        return pl.pallas_call(
            lambda x_ref, o_ref: o_ref.__setitem__(..., x_ref[...]),
            out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
            grid=(4, 3),
            in_specs=[spec],
            out_specs=spec,
            interpret=False,
        )(x)

    with pytest.raises(Exception, match="divisible by 8 and 128"):
        lower_for_tpu(bad, jax.ShapeDtypeStruct((32, 300), jnp.float32))


def test_parse_call():
    call = parse_call("x=1024x1024:bf16, y=1024:f32")
    assert [(t.name, t.shape, t.dtype) for t in call.tensors] == [
        ("x", (1024, 1024), BFLOAT16),
        ("y", (1024,), F32),
    ]
    assert str(call) == "x=1024x1024:bf16,y=1024:f32"
    assert call.rank == 2
    with pytest.raises(ValueError):
        parse_call("x=10:f64")
    with pytest.raises(ValueError):
        parse_call("x10:f32")


def test_parse_shapes_text():
    calls = parse_shapes_text("# comment\nx=4:f32  # trailing\n\nx=8:bf16;x=2x2:f32\n")
    assert [str(c) for c in calls] == ["x=4:f32", "x=8:bf16", "x=2x2:f32"]


@pytest.mark.parametrize(
    "a,b,want",
    [
        (BFLOAT16, BFLOAT16, BFLOAT16),
        (BFLOAT16, F32, F32),
        (F16, BFLOAT16, F32),
        (F16, F32, F32),
        (I32, BFLOAT16, BFLOAT16),
        (I32, F16, F16),
        (np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int16)),
        (np.dtype(np.int16), I32, I32),
        (np.dtype(np.bool_), np.dtype(np.int8), np.dtype(np.int8)),
    ],
)
def test_torch_promotion(a, b, want):
    # Values from torch.promote_types (PyTorch 2.x).
    assert torch_promote(a, b) == want
    assert torch_promote(b, a) == want


def test_every_sample_has_its_shapes_and_expectations():
    """A sample is samples/<name>.py, <name>.shapes and <name>.expect.py (sample_files.py): one
    without the others (a kernel no test runs, expectations of no kernel) fails here."""
    kernels = {p.stem for p in sample_kernels()}
    shapes = {p.stem for p in SAMPLES_DIR.glob("*.shapes")}
    expectations = set(expectation_files())
    assert sorted(kernels - expectations) == [], f"kernels without a samples/<name>{EXPECT_SUFFIX}"
    assert sorted(expectations - kernels) == [], "expectation files without a kernel"
    assert sorted(kernels ^ shapes) == [], "kernels and .shapes files that do not pair up"
    assert sorted(SAMPLES_BY_NAME) == sorted(kernels)
    assert len(SAMPLES) == len(kernels)  # one SampleSpec per sample


@pytest.mark.parametrize("spec", SAMPLES, ids=lambda s: s.name)
def test_sample_coverage(spec):
    """Each sample: its kernel, a shape list, two configs, three runnable shapes, a partial tile."""
    kernels = {k.name: k for k in kernels_in(SAMPLES_DIR / f"{spec.name}.py")}
    assert spec.kernel in kernels, f"samples/{spec.name}.py has no kernel {spec.kernel}"
    kernel = kernels[spec.kernel]
    calls = calls_of(spec)
    runnable = [c for c in calls if interpretable(c)]
    assert len(runnable) >= 3
    for call in calls:
        assert {param_of(t.name) for t in call.tensors} <= set(kernel.params), str(call)
    for variant in spec.scalars:
        # scalars with defaults, and callables passed at run time (callable parameters)
        assert set(variant) <= set(kernel.params), variant
        assert all(callable(variant[p]) for p in set(variant) - set(kernel.defaults)), variant
    sizes = [b for b in spec.configs.values()]
    if any(sizes):
        assert len(spec.configs) >= 2
        for block_sizes in sizes:
            if spec.inner_dims:
                # the dimensions named: some runnable call's extent there a block (above 1: a
                # block of 1 never has a partial edge) does not divide
                assert all(
                    any(next(t.shape[axis] for t in c.tensors if t.name == tensor) % block_sizes[block]
                        for c in runnable)
                    for block, tensor, axis in spec.inner_dims if block_sizes[block] > 1
                ), f"no partial edge tile for block sizes {block_sizes}"
                continue
            # some runnable call has a dimension the (right-aligned) blocks do not divide
            assert any(
                any(d % b for d, b in zip(c.tensors[0].shape[::-1], block_sizes[::-1])) for c in runnable
            ), f"no partial edge tile for block sizes {block_sizes}"


def test_ranks_where_the_kernel_allows():
    """The rank-generic samples (hl.tile(x.size())) run at ranks 1 to 3 (and 4)."""
    for name in ("add", "add_scaled", "softplus"):
        spec = next(s for s in SAMPLES if s.name == name)
        ranks = {c.rank for c in calls_of(spec) if interpretable(c)}
        assert {1, 2, 3} <= ranks, (name, ranks)


def test_reference_add():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], dtype=np.float32)
    y = np.array([10.0, 20.0], dtype=BFLOAT16)
    (out,) = ref_add(x, y)
    assert out.dtype == F32
    np.testing.assert_array_equal(out, [[11.0, 22.0], [13.0, 24.0]])


def test_reference_gelus():
    v = np.linspace(-6, 6, 1001).astype(np.float32)
    exact = np.array([0.5 * t * (1 + math.erf(t / math.sqrt(2))) for t in v.astype(np.float64)])
    (tanh_gelu,) = ref_bias_gelu(v[None, :], np.zeros(1001, np.float32))
    np.testing.assert_allclose(tanh_gelu[0], exact, atol=1e-3)  # the tanh approximation's error
    (geglu,) = ref_geglu(v[None, :], np.ones((1, 1001), np.float32), 1.0)
    assert geglu.dtype == BFLOAT16
    np.testing.assert_allclose(geglu[0].astype(np.float64), exact, rtol=4e-3, atol=1e-6)
    assert ref_geglu(np.array([[1.0]], F32), np.array([[2.0]], F32), 0.5)[0][0, 0] == BFLOAT16.type(0.5 * 2 * 0.8413447460685429)


def test_reference_clip_flags():
    x = np.array([[-2.0, -0.5, 0.0, 0.5, 0.75]], dtype=np.float32)
    clipped, flags = ref_clip_flags(x, lo=-0.5, hi=0.5, label=3)
    np.testing.assert_array_equal(clipped, [[-0.5, -0.5, 0.0, 0.5, 0.5]])
    np.testing.assert_array_equal(flags, [[3, 0, 0, 0, -3]])
    assert flags.dtype == I32


def test_reference_softplus():
    x = np.array([-30.0, -1.0, 0.0, 1.0, 30.0], dtype=np.float32)
    (out,) = ref_softplus(x, beta=2.0, stable=True)
    np.testing.assert_allclose(out, np.log1p(np.exp(2.0 * x.astype(np.float64))) / 2.0, rtol=1e-6)


def test_lambda_defaults_are_compiled_in():
    """`epilogue=lambda acc, tile: acc` is not a parameter of the generated function."""
    (kernel,) = kernels_in(SAMPLES_DIR / "matmul_whole_k.py")
    assert kernel.params == ("x", "y")
    assert kernel.inlined == ("epilogue",)
    assert kernel.defaults == {}


def test_reference_products():
    x = np.array([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]], dtype=BFLOAT16)
    y = np.array([[1.0, 0.0, 2.0], [0.5, 1.0, -1.0]], dtype=BFLOAT16)
    (out,) = ref_matmul(x, y)
    assert out.dtype == BFLOAT16
    np.testing.assert_array_equal(out.astype(np.float64), [[2.0, 2.0, 0.0], [5.0, 4.0, 2.0], [8.0, 6.0, 4.0]])
    # relu(x @ w.T + bias) with w in nn.Linear's [out, in] layout
    (linear,) = ref_linear_relu(x, y.T.copy(), np.array([0.0, -5.0, 1.0], dtype=BFLOAT16))
    np.testing.assert_array_equal(linear.astype(np.float64), [[2.0, 0.0, 1.0], [5.0, 0.0, 3.0], [8.0, 1.0, 5.0]])
    q = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    k = np.ones((2, 4, 2), dtype=np.float32)
    (scores,) = ref_attention_scores(q, k, 0.5)
    assert scores.dtype == F32 and scores.shape == (2, 3, 4)
    np.testing.assert_array_equal(scores[1, 2], [0.5 * (10 + 11)] * 4)


@pytest.mark.parametrize("spec", [s for s in SAMPLES if s.loop_types], ids=lambda s: s.name)
def test_inner_loop_sample_coverage(spec):
    """Samples with inner loops: known strategy names, one per loop in every combination, ids
    that differ, float32 and bfloat16 calls, and for every block config a runnable call whose
    looped dimension the inner block does not divide (the padded last tile)."""
    lengths = {len(types) for types in spec.loop_types + spec.refused_loop_types}
    assert len(lengths) == 1, f"combinations of different lengths: {lengths}"
    for types in spec.loop_types + spec.refused_loop_types:
        assert set(types) <= set(LOOP_STRATEGIES), types
    assert not set(spec.loop_types) & set(spec.refused_loop_types)
    assert len(spec.variants()) == len(spec.configs) * len(spec.loop_types)
    runnable = [c for c in calls_of(spec) if interpretable(c)]
    dtypes = {t.dtype for c in runnable for t in c.tensors}
    if not spec.notes.startswith("float32 only"):
        assert {np.dtype(BFLOAT16 if d == "bfloat16" else d) for d in spec.dtypes} <= dtypes, dtypes
    if not any(spec.configs.values()):
        # every block size is fixed in the source (`block_size=4`): no config to cover; the
        # shape list must still hold calls those blocks do not divide (the spec's notes say so)
        return
    assert spec.inner_dims, "name the looped dimensions (inner_dims)"
    for config_id, sizes in spec.configs.items():
        for block, tensor, axis in spec.inner_dims:
            extents = [next(t.shape[axis] for t in c.tensors if t.name == tensor) for c in runnable]
            if sizes[block] == 1:
                continue  # a block of 1 has no partial edge
            assert any(e % sizes[block] for e in extents), f"{config_id}: {tensor} axis {axis} always divides {sizes[block]}"
            assert any(e > sizes[block] for e in extents), f"{config_id}: the loop never runs twice"


def test_loop_variant_ids():
    spec = next(s for s in SAMPLES if s.name == "softmax_two_pass")
    assert list(spec.variants()) == [
        "b8x128-unroll-unroll", "b8x128-grid-unroll", "b8x128-emit_pipeline-unroll", "b8x128-fori_loop-unroll",
        "b16x512-unroll-unroll", "b16x512-grid-unroll", "b16x512-emit_pipeline-unroll", "b16x512-fori_loop-unroll",
    ]
    assert spec.variants()["b8x128-grid-unroll"].loop_types == ("grid", "unroll")
    # samples without inner loops keep their ids
    add = next(s for s in SAMPLES if s.name == "add")
    assert list(add.variants()) == list(add.configs)
    assert all(v.loop_types == () for v in add.variants().values())


def test_reference_attention():
    # one query, two keys with scores 0 and 1 (base 2 after qk_scale): weights 1/3, 2/3
    d = 4
    qk_scale = (1.0 / math.sqrt(d)) * 1.44269504
    q = np.array([[[[1.0, 0.0, 0.0, 0.0]]]], np.float32)
    k = np.array([[[[0.0, 0.0, 0.0, 0.0], [1.0 / qk_scale, 0.0, 0.0, 0.0]]]], np.float32)
    v = np.array([[[[3.0, 0.0, 0.0, 0.0], [6.0, 3.0, 0.0, 0.0]]]], np.float32)
    out, lse = ref_attention_lse(q, k, v)
    np.testing.assert_allclose(out[0, 0, 0], [5.0, 2.0, 0.0, 0.0], rtol=1e-6)
    np.testing.assert_allclose(lse[0, 0], [math.log2(3.0)], rtol=1e-6)
    assert lse.dtype == np.float32 and lse.shape == (1, 1, 1)
    # causal: the first query sees only the first key
    (causal,) = ref_causal_attention_output(np.concatenate([q, q], axis=2), k, v)
    np.testing.assert_allclose(causal[0, 0, 0], v[0, 0, 0], rtol=1e-6)


def test_reference_softmax_bwd():
    y = np.array([[0.25, 0.75]], np.float32)
    dy = np.array([[1.0, 0.0]], np.float32)
    (dx,) = ref_softmax_bwd(dy, y)
    # y * (dy - sum(y * dy)) = [0.25 * 0.75, 0.75 * -0.25]
    np.testing.assert_allclose(dx, [[0.1875, -0.1875]], rtol=1e-6)
