"""The generated public function is a `jax.custom_vjp`: its forward pass is the Pallas kernels,
its backward pass `jax.vjp` of `reference_<kernel>` recomputed from the inputs
(docs/guide/module.md, "Differentiation").

`test_vjp_matches_the_reference`, per sample with a float output (those that run only eagerly
in the whole-matrix tier): `jax.vjp` of the module's
function under `jax.jit` (interpret mode) against `jax.vjp` of the reference, with random
cotangents, on the call with partial tiles of the two test_reference.py checks (its first call
where it has only one kind) and, in the whole-matrix tier (HELIONC_E2E_FULL=1), on both: the
wrapper does not depend on the shapes, and a differentiated reference built of Python loops
(`hl.grid`, loop bounds read from tensors) costs seconds per call; every input's cotangent must agree, integer inputs getting float0 cotangents (the
forward pass's numerics are test_samples.py's). `test_grad_matches_finite_differences` checks the reference's derivatives
themselves, in float64, for three kernels of different kinds.
"""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax.test_util import check_grads

from conftest import import_module
from covering import FULL_PRODUCT
from e2e_support import parse_call
from references import SAMPLES
from test_reference import two_calls
from test_samples import Case


# Kernels that return no float array (indices, counts, flags): nothing to differentiate.
INTEGER_OUTPUTS = {"int8_matmul_whole_k"}


def is_float(value) -> bool:
    return jnp.issubdtype(value.dtype, jnp.floating)


def vjps(kernel, reference, arrays, seed: int, eager: bool):
    """(cotangents through the module's function, through the reference) for random output
    cotangents, both in one jitted program (one compile per call: the suite stays quick), or
    None when the kernel returns no float array. `eager`: the reference reads loop bounds from
    tensors as Python numbers, so neither can be traced (the backward pass is the reference's):
    both run eagerly."""
    outputs = kernel(*arrays) if eager else jax.eval_shape(kernel, *arrays)
    if not any(is_float(o) for o in jax.tree.leaves(outputs)):
        return None
    rng = np.random.default_rng(seed)
    float_cts = [jnp.asarray(rng.standard_normal(o.shape), o.dtype) for o in jax.tree.leaves(outputs) if is_float(o)]

    def both(arrays, float_cts):
        given = iter(float_cts)
        ct = jax.tree.unflatten(jax.tree.structure(outputs), [
            next(given) if is_float(o) else np.zeros(o.shape, jax.dtypes.float0) for o in jax.tree.leaves(outputs)])
        return jax.vjp(kernel, *arrays)[1](ct), jax.vjp(reference, *arrays)[1](ct)

    return both(arrays, float_cts) if eager else jax.jit(both)(arrays, float_cts)


def differentiated_samples():
    """Every sample; in the default tier, not those whose module and reference run only eagerly
    (loop bounds read from tensors, `.item()` sizes): their vjp cannot be jitted, and eager
    dispatch of the reference's Python loops costs 5-30 s per call, a minute of the suite's
    budget for 15 kernels that take the wrapper's one path (HELIONC_E2E_FULL=1 runs them)."""
    return [s for s in SAMPLES if FULL_PRODUCT or not (s.eager_reference or s.host_values)]


@pytest.mark.parametrize("spec", differentiated_samples(), ids=lambda s: s.name)
def test_vjp_matches_the_reference(helionc, spec):
    """jax.vjp through the module's function against jax.vjp of its reference."""
    module = helionc.module(spec.name, spec.kernel, None)
    checked = []
    calls = two_calls(spec)
    if not FULL_PRODUCT:
        calls = calls[-1:]  # the partial call, where there is one
    for kind, call, scalars in calls:
        case = Case(spec, call, scalars)
        arrays = case.arrays()
        kernel = functools.partial(getattr(module, spec.kernel), interpret=True, **case.scalars)
        reference = functools.partial(getattr(module, f"reference_{spec.kernel}"), **case.scalars)
        result = vjps(kernel, reference, arrays, seed=len(str(call)), eager=spec.eager_reference or spec.host_values)
        if result is None:
            continue
        got, want = result
        checked.append(kind)
        assert jax.tree.structure(got) == jax.tree.structure(want)
        where = f"{spec.kernel}({call}, {kind})"
        for i, (g, w, x) in enumerate(zip(jax.tree.leaves(got), jax.tree.leaves(want), jax.tree.leaves(arrays))):
            if not is_float(x):
                assert g.dtype == jax.dtypes.float0, f"{where}: integer input {i} got a {g.dtype} cotangent"
                continue
            assert g.shape == x.shape and g.dtype == x.dtype, f"{where}: cotangent {i} is {g.dtype}{g.shape}"
            np.testing.assert_allclose(np.asarray(g, np.float32), np.asarray(w, np.float32), rtol=1e-5, atol=1e-5,
                                       err_msg=f"{where}: cotangent of input {i}")
    assert checked or spec.name in INTEGER_OUTPUTS, f"{spec.kernel} returned no float array on {two_calls(spec)}"


# (sample, call): a row-wise normalisation, a product of two 3-D arrays (a derivative for
# each), and a kernel that updates a parameter in place under branches read from a tensor;
# small calls with partial tiles. (Kernels that cast
# to float32 or contract, as a TPU does, would measure float32 rounding instead.)
FINITE_DIFFERENCE_CASES = [
    ("softmax", "x=16x200:f32"),
    ("same_shape_mul", "a=4x20x130:f32,b=4x20x130:f32"),
    ("device_branches", "x=37x130:f32,flags=2:i32,out=37x130:f32"),
]


@pytest.mark.parametrize("name,shapes", FINITE_DIFFERENCE_CASES, ids=[c[0] for c in FINITE_DIFFERENCE_CASES])
def test_grad_matches_finite_differences(helionc, name, shapes):
    """The derivatives the backward pass gives (the reference's) against central finite
    differences of the module's own forward pass (the Pallas kernel, interpreted), in float64,
    with respect to every float input (integer inputs stay fixed)."""
    spec = next(s for s in SAMPLES if s.name == name)
    module = helionc.module(spec.name, spec.kernel, None)
    case = Case(spec, parse_call(shapes), spec.scalars[0])
    kernel = functools.partial(getattr(module, spec.kernel), interpret=True, **case.scalars)
    with jax.enable_x64(True):
        arrays = [jnp.asarray(np.asarray(a), jnp.float64) if is_float(a) else a for a in case.arrays()]
        floats = [i for i, a in enumerate(arrays) if is_float(a)]

        def of_floats(*values):
            full = list(arrays)
            for i, value in zip(floats, values):
                full[i] = value
            return kernel(*full)

        check_grads(of_floats, [arrays[i] for i in floats], order=1, modes=["rev"], atol=1e-6, rtol=1e-6)


def test_a_kernel_without_reference_says_why_when_differentiated(helionc, tmp_path):
    """A kernel whose reference cannot be built runs, and differentiating it raises
    NotImplementedError naming the construct and its line."""
    source = "tests/golden/diagnostics/fail_reference_tile_id.py"
    out = tmp_path / "block_offsets_pallas.py"
    assert helionc.run([source, "-o", str(out)]).returncode == 0
    module = import_module(out, "helionc_e2e.autodiff.block_offsets")
    x = jnp.arange(300, dtype=jnp.float32)
    module.block_offsets(x, interpret=True)
    with pytest.raises(NotImplementedError, match=r"block_offsets\(\) is differentiated through "
                       r"reference_block_offsets.*fail_reference_tile_id\.py:16: .*`tile\.id`"):
        jax.grad(lambda x: module.block_offsets(x, interpret=True).sum())(x)


def test_no_autodiff_prints_the_pallas_path_alone(helionc, tmp_path):
    """`--no-autodiff`: no custom_vjp, so JAX refuses to differentiate the kernel (a Pallas
    kernel in interpret mode cannot be linearized), while the forward pass is unchanged."""
    out = tmp_path / "softmax_pallas.py"
    proc = helionc.run(["samples/softmax.py", "--no-autodiff", "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    assert "_differentiable" not in text and "_softmax_forward" not in text
    module = import_module(out, "helionc_e2e.autodiff.softmax_plain")
    x = jnp.asarray(np.random.default_rng(0).standard_normal((16, 200)), jnp.float32)
    np.testing.assert_allclose(module.softmax(x, interpret=True), module.reference_softmax(x), rtol=1e-6)
    with pytest.raises(ValueError, match="Linearization failed"):
        jax.grad(lambda x: module.softmax(x, interpret=True).sum())(x)
