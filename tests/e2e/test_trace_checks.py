"""Shapes that only the call decides, checked while JAX traces: a carried value whose
axes the body states differently (samples/column_gemv.py, samples/shifted_state.py) runs when
the lengths agree and is a precise error naming both sizes when they do not, never a result
computed on mismatched blocks. And arguments of another rank than the kernel reads them with,
numbers traced where the kernel needs Python values, and the kernel path whenever JAX lowers for
a TPU."""

from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np
import pytest


def test_a_unit_axis_carried_against_a_whole_axis_must_be_one(helionc):
    module = helionc.module("column_gemv", "column_gemv", None)
    w = jnp.ones((8, 128), jnp.float32)
    np.testing.assert_allclose(np.asarray(module.column_gemv(w, jnp.ones((128, 1)), interpret=True)), 128.0)
    with pytest.raises(ValueError, match=r"v\.size\(1\) must be 1.*it is 2"):
        module.column_gemv(w, jnp.ones((128, 2), jnp.float32), interpret=True)


def test_whole_axes_of_two_tensors_carried_must_agree(helionc):
    module = helionc.module("shifted_state", "shifted_state", None)
    x = jnp.ones((4, 2, 128), jnp.float32)
    np.testing.assert_allclose(np.asarray(module.shifted_state(x, jnp.ones((2, 128)), interpret=True)), 2.0)
    with pytest.raises(ValueError, match=r"init\.size\(0\) must equal x\.size\(1\).*it is 3"):
        module.shifted_state(x, jnp.ones((3, 128), jnp.float32), interpret=True)


# Arguments of the wrong rank: a ValueError (TypeError for a non-array) while JAX traces that
# names the kernel, the parameter, the rank and the source line that reads it with that rank.
def test_an_argument_of_the_wrong_rank_names_the_line_that_fixes_it(helionc):
    module = helionc.module("softmax", "softmax", None)
    with pytest.raises(ValueError, match=r"softmax\(\): `x` must have 2 dimensions \(samples/"
                                         r"softmax\.py:19 reads it so\), got shape \(4, 8, 8\)"):
        module.softmax(jnp.ones((4, 8, 8), jnp.float32), interpret=True)
    with pytest.raises(TypeError, match=r"`x` must be an array of 2 dimensions .* not list"):
        module.softmax([[1.0, 2.0]], interpret=True)


def test_elements_of_packs_and_optional_arrays_are_checked_too(helionc):
    packs = helionc.module("pack_blend", "pack_blend", None)
    a = jnp.ones((8, 128), jnp.float32)
    row = jnp.ones((128,), jnp.float32)
    with pytest.raises(ValueError, match=r"pack_blend\(\): `pair\.1` must have 2 dimensions"):
        packs.pack_blend([a, row], {"scale": row, "bias": row}, interpret=True)
    norm = helionc.module("layer_norm", "layer_norm", None)
    norm.layer_norm(a, row, None, interpret=True)  # None: nothing to check
    with pytest.raises(ValueError, match=r"layer_norm\(\): `bias` must have 1 dimension \("):
        norm.layer_norm(a, row, a, interpret=True)


def test_a_traced_number_is_a_type_error_naming_static_argnames(helionc):
    """A number the kernel uses as a Python value (rms_norm's eps) must be static under
    jax.jit: traced, it is a TypeError that says how to pass it, not Pallas's "captures
    constants" from inside the launch; static, it works."""
    module = helionc.module("rms_norm", "rms_norm_fwd", None)
    x, w = jnp.ones((16, 256), jnp.float32), jnp.ones((256,), jnp.float32)
    with pytest.raises(TypeError, match=r"rms_norm_fwd\(\): `eps` is a number the kernel uses as a Python value "
                                        r"\(samples/rms_norm\.py:\d+\).*static_argnames='eps'"):
        jax.jit(functools.partial(module.rms_norm_fwd, interpret=True))(x, w, 1e-3)
    out, _ = jax.jit(functools.partial(module.rms_norm_fwd, interpret=True), static_argnames="eps")(x, w, eps=1e-3)
    np.testing.assert_allclose(np.asarray(out), 1 / np.sqrt(1 + 1e-3), rtol=1e-5)


def test_the_default_interpret_compiles_the_kernel_when_lowering_for_a_tpu(helionc):
    """interpret=None inside tpu_lowering_context(): jax.export for a TPU holds the Mosaic
    kernel (tpu_custom_call), never the interpreter, on a host without a TPU."""
    module = helionc.module("softmax", "softmax", None)
    x = jax.ShapeDtypeStruct((16, 256), jnp.float32)
    with module.tpu_lowering_context():
        exported = jax.export.export(jax.jit(module.softmax), platforms=["tpu"])(x)
    assert "tpu_custom_call" in exported.mlir_module()


def test_an_array_shorter_than_the_loop_it_is_tiled_by_names_both(helionc):
    """add_inplace's loop runs over x's shape and reads y with the same tiles: a y of 64 columns
    against x's 128 would be read past its end (NaN past column 64 before the check), so it is
    a ValueError naming y and the loop; a y of one column is broadcast, as Helion does."""
    module = helionc.module("add_inplace", "add_inplace", None)
    x = jnp.ones((8, 128), jnp.float32)
    with pytest.raises(ValueError, match=r"add_inplace\(\): `y` has shape \(8, 64\), but the loop at "
                                         r"samples/add_inplace\.py:\d+ tiles its axis 1 up to 128"):
        module.add_inplace(x, jnp.ones((8, 64), jnp.float32), interpret=True)
    np.testing.assert_allclose(np.asarray(module.add_inplace(x, jnp.full((8, 1), 2.0, jnp.float32), interpret=True)), 3.0)


# Arguments the signature cannot take: Python's TypeError names neither the parameters nor the
# source; the module's names both.
def test_a_wrong_argument_count_names_the_parameters_and_the_kernels_line(helionc):
    module = helionc.module("layer_norm", "layer_norm", None)
    x, w = jnp.ones((8, 128), jnp.float32), jnp.ones((128,), jnp.float32)
    expected = r"layer_norm\(x, weight, bias=None, eps=1e-5, \*, interpret=None\) \(the kernel at samples/layer_norm\.py:\d+\)"
    with pytest.raises(TypeError, match=r"layer_norm\(\) missing 1 required positional argument: 'weight'; it takes " + expected):
        module.layer_norm(x, interpret=True)
    with pytest.raises(TypeError, match=r"layer_norm\(\) takes from 2 to 4 positional arguments but 5 positional arguments .* were given; it takes " + expected):
        module.layer_norm(x, w, None, 1e-5, 0, interpret=True)
    with pytest.raises(TypeError, match=r"unexpected keyword argument 'scale'; it takes " + expected):
        module.layer_norm(x, w, scale=2.0, interpret=True)
    # A TypeError from inside the function is not taken for one of the call's.
    with pytest.raises(TypeError, match=r"`x` must be an array of 2 dimensions"):
        module.layer_norm("x", w, interpret=True)
    # The decorator keeps what help() and jax.jit read.
    assert module.layer_norm.__name__ == "layer_norm" and "Args:" in module.layer_norm.__doc__
    out = jax.jit(functools.partial(module.layer_norm, interpret=True), static_argnames="eps")(x, w, eps=1e-3)
    np.testing.assert_allclose(np.asarray(out), 0.0, atol=1e-6)


# Dtypes: numpy arrays are taken as JAX takes them, 64-bit values are refused with the way out,
# and an integer operand where PyTorch takes floats only is refused at its source line.
def test_numpy_float64_is_taken_as_float32_like_any_jnp_function(helionc):
    module = helionc.module("softmax", "softmax", None)
    x = np.random.default_rng(0).standard_normal((16, 256))  # float64, numpy's default
    out = module.softmax(x, interpret=True)
    assert out.dtype == jnp.float32
    np.testing.assert_allclose(np.asarray(out), np.asarray(jax.nn.softmax(x.astype(np.float32), axis=1)), rtol=1e-5, atol=1e-7)


def test_a_64_bit_array_is_a_type_error_naming_the_parameter(helionc):
    module = helionc.module("softmax", "softmax", None)
    with jax.enable_x64(True):
        with pytest.raises(TypeError, match=r"softmax\(\): `x` has dtype float64, which a TPU kernel cannot hold.*"
                                            r"x\.astype\(jnp\.float32\)"):
            module.softmax(jnp.ones((16, 256), jnp.float64), interpret=False)
        # The interpreter computes in float64 (the gradient checks by finite differences use it).
        out = module.softmax(jnp.ones((16, 256), jnp.float64), interpret=True)
        assert out.dtype == jnp.float64


def test_softmax_of_integers_is_refused_as_pytorch_refuses_it(helionc):
    """jnp would promote the integers and the store into softmax's int32 output would truncate
    every value to 0; PyTorch refuses softmax of integers, and so does the module."""
    module = helionc.module("softmax", "softmax", None)
    with pytest.raises(TypeError, match=r"samples/softmax\.py:\d+: torch\.softmax takes floating-point values, as in "
                                        r"PyTorch, not int32"):
        module.softmax(jnp.ones((16, 256), jnp.int32), interpret=True)


def test_an_array_the_kernel_writes_must_cover_the_loop_that_stores_it(helionc):
    """last_scale_rows stores x's rows into out[tile, :] with the tiles of a loop over x: an out
    with fewer rows would have its last blocks stored past its end (dropped), so it is a
    ValueError naming out and the loop; a longer out keeps its other rows."""
    module = helionc.module("last_scale_rows", "last_scale_rows", None)
    x, scale = jnp.ones((16, 128), jnp.float32), jnp.full((3,), 2.0, jnp.float32)
    with pytest.raises(ValueError, match=r"last_scale_rows\(\): `out` has shape \(8, 128\), but the loop at "
                                         r"samples/last_scale_rows\.py:\d+ stores its axis 0 up to 16"):
        module.last_scale_rows(x, jnp.zeros((8, 128), jnp.float32), scale, interpret=True)
    out = module.last_scale_rows(x, jnp.zeros((24, 128), jnp.float32), scale, interpret=True)
    np.testing.assert_allclose(np.asarray(out)[:16], 2.0)
    np.testing.assert_allclose(np.asarray(out)[16:], 0.0)
