"""Self-tests of the issue-3 references and the pending shape lists; none of them needs helionc.

Covers the references of the pending kernels (references_pending.py) and of the issue-3 kernels
already moved to samples/ (their expectation files, samples/<name>.expect.py). Collected by `pytest tests/e2e` (and so by ctest):
they are fast and never compile anything. The pending kernels themselves are tried by
try_pending.py, never by pytest.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from e2e_support import BFLOAT16, interpretable, kernels_in, make_inputs, seed_for
from expectations import SOFTMAX_TOLERANCE, indices_below, ref_softmax, remember_shape
from references import SAMPLES, calls_of, reference_of
from references_pending import PENDING, PENDING_DIR, pending_calls_of

ref_col_sum = reference_of("col_sum")
ref_cross_entropy = reference_of("cross_entropy")
ref_embedding = reference_of("embedding")
ref_layer_norm = reference_of("layer_norm")
ref_layer_norm_fwd = reference_of("layer_norm_stats")
ref_log_softmax = reference_of("log_softmax")
ref_rms_norm_fwd = reference_of("rms_norm")
ref_row_max = reference_of("row_max")
ref_row_mean = reference_of("row_mean")
ref_row_sum = reference_of("row_sum")

F32, I32 = np.dtype(np.float32), np.dtype(np.int32)
SPECS = [p.spec for p in PENDING]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.name)
def test_pending_coverage(spec):
    """Kernel present, shapes name its parameters, f32 and bf16, partial tiles, two configs."""
    kernels = {k.name: k for k in kernels_in(PENDING_DIR / f"{spec.name}.py")}
    assert spec.kernel in kernels, f"{spec.name}.py has no kernel {spec.kernel}"
    kernel = kernels[spec.kernel]
    calls = pending_calls_of(spec)
    runnable = [c for c in calls if interpretable(c)]
    assert len(runnable) >= 3
    for call in calls:
        assert {t.name for t in call.tensors} <= set(kernel.params), str(call)
        missing = [p for p in kernel.params if p not in {t.name for t in call.tensors} and p not in kernel.defaults]
        assert not missing, f"{call} gives no {missing}"
    for variant in spec.scalars:
        assert set(variant) <= set(kernel.defaults), variant
    assert len(spec.configs) >= 2
    dtypes = {t.dtype for c in runnable for t in c.tensors}
    assert {F32, BFLOAT16} <= dtypes, dtypes
    # every dimension of the first tensor (the data) is, in some runnable call, not a multiple of
    # 8 (sublanes) or 128 (lanes): partial tiles in every dimension, the reduced one included
    data = [c.tensors[0].shape for c in runnable]
    rank = len(data[0])
    for axis in range(rank):
        align = 128 if axis == rank - 1 else 8
        assert any(shape[axis] % align for shape in data), f"axis {axis} always divides {align}"


def test_softmax_hand_values():
    x = np.array([[0.0, math.log(3.0)], [5.0, 5.0]], dtype=np.float32)
    (out,) = ref_softmax(x)
    assert out.dtype == F32
    np.testing.assert_allclose(out, [[0.25, 0.75], [0.5, 0.5]], rtol=1e-6)
    (out3,) = ref_softmax(np.zeros((2, 3, 4), BFLOAT16))
    assert out3.dtype == BFLOAT16 and out3.shape == (2, 3, 4)
    assert np.all(out3.astype(np.float64) == 0.25)
    # large values do not overflow
    (big,) = ref_softmax(np.array([[1000.0, 1000.0]], np.float32))
    np.testing.assert_array_equal(big, [[0.5, 0.5]])


def test_log_softmax_hand_values():
    (out,) = ref_log_softmax(np.array([[0.0, 0.0], [0.0, math.log(3.0)]], np.float32))
    np.testing.assert_allclose(out, [[-math.log(2)] * 2, [math.log(0.25), math.log(0.75)]], rtol=1e-6)


def test_layer_norm_hand_values():
    x = np.array([[1.0, 2.0, 3.0, 4.0]], np.float32)
    w = np.full(4, 2.0, np.float32)
    b = np.ones(4, np.float32)
    rstd = 1.0 / math.sqrt(1.25 + 1e-5)  # mean 2.5, biased variance 1.25
    want = np.array([-1.5, -0.5, 0.5, 1.5]) * rstd * 2.0
    (out,) = ref_layer_norm(x, w, b)
    np.testing.assert_allclose(out, [want + 1.0], rtol=1e-6)
    (nobias,) = ref_layer_norm(x, w)
    np.testing.assert_allclose(nobias, [want], rtol=1e-6)
    out, mean, rs = ref_layer_norm_fwd(x.astype(BFLOAT16), w.astype(BFLOAT16), eps=1e-5)
    assert (out.dtype, mean.dtype, rs.dtype) == (BFLOAT16, F32, F32)
    assert mean.shape == (1,) and mean[0] == 2.5
    np.testing.assert_allclose(rs, [rstd], rtol=1e-7)


def test_rms_norm_hand_values():
    x = np.array([[3.0, 4.0]], np.float32)
    out, inv = ref_rms_norm_fwd(x, np.array([1.0, 10.0], np.float32), eps=0.0)
    np.testing.assert_allclose(inv, [1 / math.sqrt(12.5)], rtol=1e-7)
    np.testing.assert_allclose(out, [[3 / math.sqrt(12.5), 40 / math.sqrt(12.5)]], rtol=1e-7)
    out, inv = ref_rms_norm_fwd(x.astype(BFLOAT16), np.ones(2, BFLOAT16), 1e-5)
    assert out.dtype == inv.dtype == BFLOAT16


def test_sums_hand_values():
    x = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    np.testing.assert_array_equal(ref_row_sum(x)[0], [3.0, 7.0])
    np.testing.assert_array_equal(ref_col_sum(x)[0], [4.0, 6.0])
    (mean,) = ref_row_mean(x.astype(BFLOAT16))
    assert mean.dtype == F32 and mean.shape == (2, 1)
    np.testing.assert_array_equal(mean, [[1.5], [3.5]])
    # bf16 sums round once: 256 + 1 + 1 is 258 exactly (an eager bf16 running sum gives 256)
    (s,) = ref_row_sum(np.array([[256.0, 1.0, 1.0]], BFLOAT16))
    assert s.dtype == BFLOAT16 and s[0] == 258.0


def test_row_max_hand_values():
    values, indices, minima = ref_row_max(np.array([[1.0, 3.0, 3.0], [-2.0, -1.0, -5.0]], np.float32))
    np.testing.assert_array_equal(values, [3.0, -1.0])
    np.testing.assert_array_equal(indices, [1, 1])  # ties go to the first index
    assert indices.dtype == I32
    np.testing.assert_array_equal(minima, [1.0, -5.0])


def test_cross_entropy_hand_values():
    logits = np.array([[0.0, 0.0], [0.0, math.log(3.0)]], np.float32)
    (loss,) = ref_cross_entropy(logits, np.array([0, 1], np.int32))
    assert loss.shape == () and loss.dtype == F32
    np.testing.assert_allclose(loss, (math.log(2.0) - math.log(0.75)) / 2, rtol=1e-6)
    (loss16,) = ref_cross_entropy(logits.astype(BFLOAT16), np.array([1, 0], np.int32))
    assert loss16.dtype == F32  # losses are allocated as float32


def test_embedding_hand_values():
    weight = np.arange(12, dtype=np.float32).reshape(4, 3)
    (out,) = ref_embedding(np.array([[3, 0], [1, 1]], np.int32), weight)
    assert out.shape == (2, 2, 3)
    np.testing.assert_array_equal(out[0, 0], [9, 10, 11])
    np.testing.assert_array_equal(out[1, 1], [3, 4, 5])


def test_index_generators():
    rng = np.random.default_rng(0)
    remember_shape("w")(rng, (7, 3), F32)
    ids = indices_below("w", 0)(rng, (1000,), I32)
    assert ids.dtype == I32 and ids.min() == 0 and ids.max() == 6
    with pytest.raises(AssertionError, match="before the index tensor"):
        indices_below("w", 0)(rng, (3,), I32)  # the shape is used once


INDEXED = [
    (s, calls_of) for s in SAMPLES if s.name in ("cross_entropy", "cross_entropy_gather", "embedding")
]


@pytest.mark.parametrize("spec,calls", INDEXED, ids=[s.name for s, _ in INDEXED])
def test_index_inputs_in_range(spec, calls):
    for call in calls(spec):
        if not interpretable(call):
            continue
        inputs = make_inputs(call, spec.inputs, seed_for(spec.name, call))
        spec.reference(**inputs)  # an index past the end would raise here
        for name in ("labels", "x"):
            if name in inputs and inputs[name].dtype == I32:
                assert inputs[name].min() >= 0


def _eager_bf16_softmax(x: np.ndarray) -> np.ndarray:
    """Decomposed softmax as PyTorch eager runs it on bf16: every op rounds to bf16, sums in f32."""
    bf = lambda a: np.asarray(a).astype(BFLOAT16).astype(np.float32)  # noqa: E731
    v = x.astype(np.float32)
    shifted = bf(v - v.max(axis=-1, keepdims=True))
    e = bf(np.exp(shifted))
    s = bf(e.sum(axis=-1, keepdims=True, dtype=np.float32))
    return bf(e / s).astype(BFLOAT16)


def test_softmax_bf16_tolerance_admits_eager_rounding():
    rng = np.random.default_rng(3)
    x = (rng.standard_normal((64, 1000), dtype=np.float32) * 2).astype(BFLOAT16)
    (want,) = ref_softmax(x)
    rtol, atol = SOFTMAX_TOLERANCE[BFLOAT16]
    got = _eager_bf16_softmax(x)
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol)
    # it is relative: 5% off is rejected even for outputs of ~1e-3
    assert not np.allclose(want.astype(np.float64) * 1.05, want.astype(np.float64), rtol=rtol, atol=atol)
