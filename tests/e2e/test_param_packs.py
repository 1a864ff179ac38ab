"""Parameters that are lists, tuples or dicts of tensors (samples/pack_*.py): the module
checks the value the caller passes before anything else (a precise TypeError, ValueError or
KeyError naming the kernel and the parameter), a list read only by constant indices accepts
more elements than the kernel reads, and `--shapes` names the elements `xs.0` and `d.key`.
"""

from __future__ import annotations

import re

import jax.numpy as jnp
import numpy as np
import pytest


def _arrays(count, n=300):
    rng = np.random.default_rng(count)
    return [jnp.asarray(rng.standard_normal(n).astype(np.float32)) for _ in range(count)]


def _blend_args():
    pair = [jnp.ones((8, 128), jnp.float32), jnp.full((8, 128), 2.0, jnp.float32)]
    gates = {"scale": jnp.full((128,), 3.0, jnp.float32), "bias": jnp.ones((128,), jnp.float32)}
    return pair, gates


def test_a_tuple_of_the_wrong_length_is_a_value_error(helionc):
    module = helionc.module("pack_blend", "pack_blend", None)
    pair, gates = _blend_args()
    for fn in (module.pack_blend, module.reference_pack_blend):
        with pytest.raises(ValueError, match=re.escape("`pair` of kernel `pack_blend` takes 2 arrays, got 3")):
            fn([*pair, pair[0]], gates)


def test_an_array_for_a_list_is_a_type_error(helionc):
    module = helionc.module("pack_blend", "pack_blend", None)
    pair, gates = _blend_args()
    with pytest.raises(TypeError, match=re.escape("`pair` of kernel `pack_blend` is a list or tuple of arrays, not")):
        module.pack_blend(pair[0], gates, interpret=True)
    with pytest.raises(TypeError, match=re.escape("`gates` of kernel `pack_blend` is a dict of arrays, not list")):
        module.pack_blend(pair, [gates["scale"], gates["bias"]], interpret=True)


def test_a_missing_key_is_a_key_error(helionc):
    module = helionc.module("pack_blend", "pack_blend", None)
    pair, gates = _blend_args()
    with pytest.raises(KeyError, match=re.escape("needs the keys 'scale', 'bias' (the kernel reads them), got ['scale']")):
        module.pack_blend(pair, {"scale": gates["scale"]}, interpret=True)


def test_the_blend_of_a_tuple_and_a_dict(helionc):
    module = helionc.module("pack_blend", "pack_blend", None)
    pair, gates = _blend_args()
    lo, hi = module.pack_blend(tuple(pair), gates, interpret=True)
    np.testing.assert_allclose(lo, np.full((8, 128), 4.0))
    np.testing.assert_allclose(hi, np.full((8, 128), 7.0))


def test_a_list_read_by_constant_indices_takes_more_elements(helionc):
    module = helionc.module("pack_accumulate", "pack_accumulate", None)
    outs = _arrays(3)
    (x,) = _arrays(1)
    first, second = module.pack_accumulate(outs, x, interpret=True)
    np.testing.assert_allclose(first, np.asarray(outs[0]) + np.asarray(x), rtol=1e-6)
    np.testing.assert_allclose(second, np.asarray(outs[1]) * np.asarray(x), rtol=1e-6)
    with pytest.raises(ValueError, match=re.escape(
            "`outs` of kernel `pack_accumulate` takes at least 2 arrays (the kernel reads outs[1]), got 1")):
        module.pack_accumulate(outs[:1], x, interpret=True)


def test_shapes_name_the_elements(helionc, tmp_path):
    out = tmp_path / "report.txt"
    proc = helionc.run(["samples/pack_weighted_sum.py", "--emit", "report", "--shapes",
                        "xs.0=64x256:f32,xs.1=64x256:f32,xs.2=64x256:f32", "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    assert "xs.2" in out.read_text() or "xs_2" in out.read_text()
    proc = helionc.run(["samples/pack_weighted_sum.py", "--emit", "report", "--shapes",
                        "xs.0=64x256:f32,xs.1=64x256:f32,xs.3=64x256:f32", "-o", str(out)])
    assert proc.returncode == 2
    assert "`xs.3` is not a tensor parameter of kernel `pack_weighted_sum` (xs.0, xs.1, xs.2)" in proc.stderr
