"""The references every module carries (`reference_<kernel>`, backend/reference): each kernel as
plain jnp on whole arrays, printed without the Pallas printers.

`test_reference_matches_numpy`, per sample: the reference on a call the first config's tiles
divide and on one that leaves partial tiles (the smallest such calls of the `.shapes` sidecar
and `extra_shapes`), against the numpy reference of the sample's expectation file. The kernels
are not run here: test_samples.py runs every config and strategy against the same numpy
reference (its covering), so a kernel and its module's reference agree wherever both match
numpy, and running a kernel here again would only repeat that. Modules come from the
session's compile cache (conftest.py), shared with test_samples.py. The references run under
jax.jit; the calls are small, so the file stays quick on a 2-core machine.
"""

from __future__ import annotations

import functools
import math
import re

import jax
import numpy as np
import pytest

from conftest import import_module
from e2e_support import Call, assert_matches, interpretable, parse_call
from expectations import SampleSpec
from references import SAMPLES, calls_of
from test_samples import Case


def reference_of(helionc, spec: SampleSpec, config_id: str | None, scalars: dict):
    """`reference_<kernel>` of the module compiled with `config_id`, under jax.jit (eagerly for
    `eager_reference` samples: loop bounds read from tensors) with the scalars bound (XLA may then keep 16-bit intermediates in float32, as the kernels do on a TPU
    and in the interpreter; an eager call rounds every op, as PyTorch eager does)."""
    if config_id is None:
        module = helionc.module(spec.name, spec.kernel, None)
    else:
        variant = spec.variants()[config_id]
        module = helionc.module(spec.name, spec.kernel, config_id, variant.block_sizes, variant.loop_types)
    fn = getattr(module, f"reference_{spec.kernel}", None)
    assert callable(fn), f"the module has no reference_{spec.kernel}"
    bound = functools.partial(fn, **scalars)
    return bound if spec.eager_reference else jax.jit(bound)


def as_tuple(result, spec: SampleSpec, count: int) -> tuple:
    if count == 1 and not spec.returns_tuple:
        assert not isinstance(result, (tuple, list)), f"one result expected, got {type(result).__name__}"
        return (result,)
    assert isinstance(result, tuple), f"a tuple expected, got {type(result).__name__}"
    return result


def elements(call: Call) -> int:
    return sum(math.prod(t.shape) for t in call.tensors)


def divides(call: Call, blocks) -> bool:
    """Whether each of the config's block sizes divides each dimension it could tile (or
    covers it whole): the kernel then has no partial tile."""
    return all(d % b == 0 or d <= b for t in call.tensors for d in t.shape for b in blocks)


def several_blocks(call: Call, blocks) -> bool:
    return any(d >= 2 * b for t in call.tensors for d in t.shape for b in blocks)


# A call interpreted once per config stays below this size: the suite must stay quick.
MAX_ELEMENTS = 1 << 16

# Small calls for samples whose shape lists have none of a kind below MAX_ELEMENTS.
EXTRA_CALLS = {
    "mixed_dtype": ("x=20x130:f32,y=20x130:f32",),
    "cross_entropy_gather": ("logits=16x16:f32,labels=16:i32",),
    "first_column_scale": ("x=16x256:f32,scale=1:f32",),
}


def two_calls(spec: SampleSpec) -> list[tuple[str, Call, dict]]:
    """The smallest runnable calls that the first config's tiles divide (several blocks where
    one is small enough) and that leave a partial last tile, each with its scalar variant."""
    blocks = next(iter(spec.configs.values()))
    every = calls_of(spec) + [parse_call(text) for text in EXTRA_CALLS.get(spec.name, ())]
    calls = [(c, spec.scalars[i % len(spec.scalars)]) for i, c in enumerate(every)
             if interpretable(c) and elements(c) <= MAX_ELEMENTS]
    calls.sort(key=lambda pair: elements(pair[0]))
    dividing = [pair for pair in calls if divides(pair[0], blocks)]
    dividing = [pair for pair in dividing if several_blocks(pair[0], blocks)] or dividing
    partial = [pair for pair in calls if not divides(pair[0], blocks)]
    picked = [("dividing", *dividing[0])] if dividing else []
    if partial:
        picked.append(("partial", *partial[0]))
    elif len(dividing) > 1:
        picked.append(("dividing", *dividing[1]))  # no tunable blocks: nothing is ever partial
    return picked


def results(value, spec: SampleSpec, want: tuple) -> tuple:
    return as_tuple(value, spec, len(want))


@pytest.mark.parametrize("spec", SAMPLES, ids=lambda s: s.name)
def test_reference_matches_numpy(helionc, spec):
    """The module's reference against numpy on a call its tiles divide and one with partial
    tiles (the kernels' own numerics are test_samples.py's, against the same numpy)."""
    picked = two_calls(spec)
    kinds = {kind for kind, _, _ in picked}
    assert len(picked) == 2 and (kinds == {"dividing", "partial"} or not spec.configs[next(iter(spec.configs))]), (
        f"{spec.name}: no small runnable call of each kind: {[(k, str(c)) for k, c, _ in picked]}"
    )
    for kind, call, scalars in picked:
        case = Case(spec, call, scalars)
        want = case.expected()
        # The reference is the same in every config's module: checked once per call.
        ref = results(reference_of(helionc, spec, None, scalars)(*case.arrays()), spec, want)
        assert len(ref) == len(want)
        for i, (r, w) in enumerate(zip(ref, want)):
            assert isinstance(r, jax.Array), f"reference output {i} is a {type(r).__name__}"
            assert_matches(r, w, f"reference_{spec.kernel}({call}, {kind}) output {i} vs numpy", spec.tolerance)


def test_a_kernel_without_reference_says_why(helionc, tmp_path):
    """A construct the reference cannot express (`tile.id`) leaves the kernel compiling; its
    reference raises NotImplementedError naming the construct and its line, and `--emit
    reference` is an error there (tests/golden/diagnostics has the message)."""
    source = "tests/golden/diagnostics/fail_reference_tile_id.py"
    out = tmp_path / "block_offsets_pallas.py"
    proc = helionc.run([source, "-o", str(out), "-v"])
    assert proc.returncode == 0, proc.stderr
    assert "remark: the reference of kernel `block_offsets` cannot express `tile.id`" in proc.stderr
    module = import_module(out, "helionc_e2e.reference.block_offsets")
    x = jax.numpy.arange(300, dtype=jax.numpy.float32)
    np.testing.assert_array_equal(np.asarray(module.block_offsets(x, interpret=True))[:3], [0, 1, 2])
    with pytest.raises(NotImplementedError, match=r"fail_reference_tile_id\.py:16: .*`tile\.id`"):
        module.reference_block_offsets(x)
    refused = helionc.run([source, "--emit", "reference", "-o", str(tmp_path / "ref.py")])
    assert refused.returncode == 1 and "cannot express `tile.id`" in refused.stderr
    assert not (tmp_path / "ref.py").exists()


def test_emit_reference_writes_a_jax_only_module(helionc, tmp_path):
    """`--emit reference` alone: the references and their prelude, importing only jax (and
    math); the function agrees with the one in the Pallas module."""
    out = tmp_path / "attention_reference.py"
    proc = helionc.run(["samples/attention.py", "--emit", "reference", "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    text = out.read_text()
    imports = [line for line in text.splitlines() if line.startswith(("import ", "from "))]
    assert imports == ["import math", "import jax", "import jax.numpy as jnp"]
    assert re.search(r"\bpl\.|\bpltpu\.", text) is None, "the reference uses Pallas"
    module = import_module(out, "helionc_e2e.reference.attention_only")
    spec = next(s for s in SAMPLES if s.name == "attention")
    kind, call, scalars = two_calls(spec)[1]
    case = Case(spec, call, scalars)
    case.check(jax.jit(module.reference_attention_output)(*case.arrays()))


@pytest.mark.parametrize("loop_type", ["unroll", "grid"])
def test_an_empty_inner_range_keeps_the_carried_values(helionc, tmp_path, loop_type):
    """`for tile_k in hl.tile(start, m)` with start == m runs no step: the carried sum stays
    zero, as the reference says. Under `grid` the loop's axis still takes one step, whose work
    is skipped (`pl.when(start < m)`), so the statements after the loop write the output (a
    grid axis of length 0 ran no step at all and left NaN: found by comparing with the
    reference)."""
    source = "tests/golden/reference/window_sums.py"
    config = tmp_path / "window_sums.yaml"
    config.write_text(f"schema_version: 1\nkernel: window_sums\ndefault:\n  block_sizes: [8]\n"
                      f"  pallas_loop_type: [{loop_type}]\n")
    out = tmp_path / f"window_sums_{loop_type}_pallas.py"
    proc = helionc.run([source, "--config", str(config), "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    module = import_module(out, f"helionc_e2e.reference.window_sums_{loop_type}")
    x = jax.numpy.ones((2, 7), jax.numpy.float32)
    table = jax.numpy.ones((11, 7), jax.numpy.float32)
    ids = jax.numpy.zeros((2,), jax.numpy.int32)
    ref_sums, ref_x = module.reference_window_sums(x, table, ids)
    np.testing.assert_array_equal(np.asarray(ref_sums), np.zeros(7))
    np.testing.assert_array_equal(np.asarray(ref_x), 2 * np.ones((2, 7)))
    sums, doubled = module.window_sums(x, table, ids, interpret=True)
    np.testing.assert_array_equal(np.asarray(sums), np.asarray(ref_sums))
    np.testing.assert_array_equal(np.asarray(doubled), np.asarray(ref_x))
