"""Calls with an axis of length 0 (README, "Empty axes").

A launch whose own loop runs no steps runs none of its device code, as in Helion: the module
skips its pallas_call (Pallas cannot run a grid or a block of no elements) and every output
keeps its value from before the launch. Any other empty axis (an inner loop of no steps, a whole
axis of length 0 read in blocks) raises a ValueError naming the launch, never a crash in the
middle of JAX's tracing.
"""

from __future__ import annotations

import dataclasses
import functools
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from e2e_support import Call, SAMPLES_DIR, parse_call, read_shapes_file
from expectations import SampleSpec
from references import SAMPLES, SAMPLES_BY_NAME
from test_samples import Case, compiled, first_variant

# The message of an empty axis the module does not support yet (templates/prelude.py.tmpl).
NOT_SUPPORTED = "of length 0 is not supported yet"


def emptied(call: Call) -> Call:
    """`call` with the first tensor's first extent, and every extent equal to it, set to 0."""
    first = call.tensors[0].shape[0]
    tensors = tuple(
        dataclasses.replace(t, shape=tuple(0 if d == first else d for d in t.shape)) for t in call.tensors
    )
    return Call(tensors)


# Samples whose emptied first call is not a valid input (numpy or the kernel would not take it).
NOT_EMPTIABLE = {
    "accumulate_views": "count keeps its length, which the reference ties to total's",
    "cartesian_scatter": "indices into an array of no rows",
    "column_pick": "indices into a table of no rows",
    "ellipsis_index": "it reads matrix 0 of the batch (`v[0, ...]`; torch raises too)",
    "embedding": "indices into a table of no rows",
    "gather_pairs": "indices into a table of no rows",
    "gather_states": "indices into a table of no rows",
    "host_clear_ends": "its host code writes the first and last rows (torch raises too)",
    "host_gather": "indices into a table of no rows",
    "mask_layouts": "the kernel views x's two minor axes as 128 lanes (Helion specializes them)",
    "offset_rows": "the kernel's output has x.size(0) - 3 rows",
    "scatter_add_rows": "indices into a table of no rows",
    "scatter_back": "its host code writes the first and last rows (torch raises too)",
    "softmax_bwd": "its input generator takes a softmax over no elements",
    "static_params": "flat_y keeps its length, which the kernel views as x's shape",
}


def _empty_cases():
    cases = []
    for spec in SAMPLES:
        if spec.name in NOT_EMPTIABLE:
            continue
        call = read_shapes_file(SAMPLES_DIR / f"{spec.name}.shapes")[0]
        if not call.tensors[0].shape:
            continue  # a 0-d first tensor has no extent to empty
        cases.append(pytest.param(spec, emptied(call), id=f"{spec.name}-{emptied(call)}"))
    return cases


def run_or_refuse(fn, case: Case, scalars: dict):
    """The module's outputs, or None when it refused the call with the precise error."""
    try:
        return fn(*case.arrays(), **scalars, interpret=True)
    except ValueError as error:
        assert NOT_SUPPORTED in str(error), f"not the empty-axis error: {error}"
        return None


@pytest.mark.parametrize("spec,call", _empty_cases())
def test_empty_axis_runs_or_is_refused_precisely(helionc, spec: SampleSpec, call: Call):
    """Every sample (but NOT_EMPTIABLE), its first call emptied: the numpy reference's outputs,
    or the precise error."""
    fn = compiled(helionc, spec, first_variant(spec))
    scalars = spec.scalars[0]
    case = Case(spec, call, scalars)
    result = run_or_refuse(fn, case, scalars)
    if result is None:
        return
    with np.errstate(all="ignore"):  # a reduction over no elements may warn in numpy
        try:
            case.expected()
        except (ValueError, IndexError, ZeroDivisionError):
            # numpy has no answer (a max over no elements): only the shapes can be asked for
            jax.tree_util.tree_map(lambda a: a.shape, result)
            return
        case.check(result)


@pytest.mark.parametrize("call", ["x=0x300:f32,y=300:f32", "x=0x0:f32,y=0:f32", "x=5x0:f32,y=0:f32"])
def test_add_of_no_rows_is_empty(helionc, call):
    spec = SAMPLES_BY_NAME["add"]
    fn = compiled(helionc, spec, first_variant(spec))
    case = Case(spec, parse_call(call), {})
    result = run_or_refuse(fn, case, {})
    assert result is not None, "the loop over the empty axis has no steps: skipped, not refused"
    case.check(result)
    case.check(jax.jit(functools.partial(fn, interpret=True))(*case.arrays()))


def test_loop_of_no_steps_keeps_the_outputs(helionc):
    """two_halves loops over n // 2 elements: with n = 1 nothing runs and `out` stays zeros."""
    spec = SAMPLES_BY_NAME["two_halves"]
    fn = compiled(helionc, spec, first_variant(spec))
    x = jnp.asarray([3.0], jnp.float32)
    np.testing.assert_array_equal(np.asarray(fn(x, x, interpret=True)), [0.0])
    np.testing.assert_array_equal(np.asarray(jax.jit(functools.partial(fn, interpret=True))(x, x)), [0.0])


def test_lowering_a_skipped_launch_needs_no_kernel(helionc, tpu_lower):
    """A launch skipped for no steps lowers for TPU to no custom call (nothing to run)."""
    spec = SAMPLES_BY_NAME["add"]
    fn = compiled(helionc, spec, first_variant(spec))
    text = tpu_lower(lambda x, y: fn(x, y, interpret=False),
                     jax.ShapeDtypeStruct((0, 300), jnp.float32), jax.ShapeDtypeStruct((300,), jnp.float32))
    assert "tpu_custom_call" not in text


def test_inner_loop_of_no_steps_is_refused_with_the_launch(helionc):
    """matmul with k = 0: the inner loop runs no steps; the error names the kernel and line."""
    spec = SAMPLES_BY_NAME["matmul"]
    fn = compiled(helionc, spec, first_variant(spec))
    x = jnp.zeros((16, 0), jnp.float32)
    y = jnp.zeros((0, 128), jnp.float32)
    with pytest.raises(ValueError, match=re.escape(NOT_SUPPORTED)) as raised:
        fn(x, y, interpret=True)
    assert re.search(r"matmul \(.*matmul\.py:\d+\)", str(raised.value)), str(raised.value)
