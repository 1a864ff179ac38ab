"""`hl.register_tunable` keys (docs/guide/kernels.md, "Tunables of the kernel's own").

A kernel's own config key takes its value from the config (YAML `default:` or a shape entry,
the decorator's config, or the fragment's default) while JAX traces. Checked here on the
tunable_split_k sample: every legal `k_slices` computes the product in interpret mode on
dividing and non-dividing shapes (one K slice stores, several add with `hl.atomic_add`); the
value changes the blocks of the traced kernel; an illegal value is refused at its place in the
YAML; `--emit config-space` lists the legal values and `--autotune` writes the key back.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module
from e2e_support import pallas_calls


def compile_with(helionc, tmp_path, default, name):
    config = tmp_path / f"{name}.yaml"
    config.write_text(f"schema_version: 1\nkernel: tunable_split_k\ndefault:\n{default}")
    out = tmp_path / f"{name}_pallas.py"
    proc = helionc.run(["samples/tunable_split_k.py", "--config", str(config), "-o", str(out)])
    return proc, out


@pytest.mark.parametrize("k_slices", [1, 2, 4, 8])
@pytest.mark.parametrize("loop_type", ["unroll", "emit_pipeline"])
def test_every_value_computes_the_product(helionc, tmp_path, k_slices, loop_type):
    proc, out = compile_with(
        helionc, tmp_path,
        f"  block_sizes: [8, 128, 128]\n  pallas_loop_type: [{loop_type}]\n  k_slices: {k_slices}\n",
        f"k{k_slices}_{loop_type}")
    assert proc.returncode == 0, proc.stderr
    module = import_module(out, f"helionc_e2e.tunables.k{k_slices}_{loop_type}")
    rng = np.random.default_rng(k_slices)
    for m, k, n in [(64, 1024, 256), (20, 700, 130)]:
        x = rng.standard_normal((m, k)).astype(np.float32)
        y = rng.standard_normal((k, n)).astype(np.float32)
        got = np.asarray(module.tunable_split_k(jnp.asarray(x), jnp.asarray(y), interpret=True))
        expected = x.astype(np.float64) @ y.astype(np.float64)
        np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-3)


def test_value_sizes_the_slices(helionc, tmp_path):
    """k_slices=4 on k=1024 gives slices of 256: four steps along the K axis of the grid."""
    proc, out = compile_with(helionc, tmp_path, "  block_sizes: [8, 128, 128]\n  k_slices: 4\n", "grid4")
    assert proc.returncode == 0, proc.stderr
    module = import_module(out, "helionc_e2e.tunables.grid4")
    x = jnp.ones((8, 1024), jnp.float32)
    y = jnp.ones((1024, 128), jnp.float32)
    jaxpr = jax.make_jaxpr(lambda a, b: module.tunable_split_k(a, b, interpret=True))(x, y)
    grids = [tuple(e.params["grid_mapping"].grid) for e in pallas_calls(jaxpr)]
    assert grids and grids[0][-1] == 4, grids


def test_illegal_value_is_refused(helionc, tmp_path):
    proc, out = compile_with(helionc, tmp_path, "  k_slices: 3\n", "bad")
    assert proc.returncode == 1
    assert "bad.yaml:4:13: error: tunable `k_slices` must be a power of two from 1 to 8, not 3" in proc.stderr
    assert not out.exists()


def test_config_space_and_autotune(helionc, tmp_path):
    proc = helionc.run(["samples/tunable_split_k.py", "--emit", "config-space",
                        "--shapes", "x=64x1024:bf16,y=1024x256:bf16", "-o", "-"])
    assert proc.returncode == 0, proc.stderr
    assert '- name: "k_slices"' in proc.stdout
    assert "legal: [2, 1, 4, 8]" in proc.stdout
    tuned = tmp_path / "tuned.yaml"
    proc = helionc.run(["samples/tunable_split_k.py", "--autotune", "-q",
                        "--shapes", "x=64x1024:bf16,y=1024x256:bf16", "--config-out", str(tuned)])
    assert proc.returncode == 0, proc.stderr
    assert "k_slices: " in tuned.read_text()
