"""`helionc --autotune` end to end (issue 10): the tuning YAML and the module written in the same
run (`--config-out` and `-o`); the module, run in interpret mode with the tuned configs, matches
numpy for every tuned call, and each tuned kernel lowers for TPU."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from conftest import import_module

CALLS = [((256, 512), (512, 384), jnp.bfloat16), ((128, 256), (256, 128), jnp.float32)]


def shapes_arg() -> str:
    short = {jnp.bfloat16: "bf16", jnp.float32: "f32"}
    return ";".join(f"x={a[0]}x{a[1]}:{short[t]},y={b[0]}x{b[1]}:{short[t]}" for a, b, t in CALLS)


def test_tuned_matmul_runs_and_lowers(helionc, tmp_path, tpu_lower):
    yaml_path, module_path = tmp_path / "matmul.yaml", tmp_path / "matmul_pallas.py"
    proc = helionc.run(["samples/matmul.py", "--autotune", "--target", "tpu-v5e", "-q",
                        "--shapes", shapes_arg(), "--config-out", str(yaml_path),
                        "-o", str(module_path)])
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""  # -q
    text = yaml_path.read_text()
    assert text.count("  - shapes:") == len(CALLS)
    assert "predicted: {time_us: " in text
    module = import_module(module_path, "helionc_e2e.autotune.matmul")
    rng = np.random.default_rng(0)
    for a_shape, b_shape, dtype in CALLS:
        x = jnp.asarray(rng.standard_normal(a_shape), dtype)
        y = jnp.asarray(rng.standard_normal(b_shape), dtype)
        got = np.asarray(module.matmul(x, y, interpret=True), np.float64)
        want = np.asarray(x, np.float64) @ np.asarray(y, np.float64)
        tolerance = 5e-2 if dtype == jnp.bfloat16 else 1e-4
        np.testing.assert_allclose(got, want, rtol=tolerance, atol=tolerance * a_shape[1] ** 0.5)
        lowered = tpu_lower(lambda a, b: module.matmul(a, b, interpret=False),
                            jax.ShapeDtypeStruct(a_shape, dtype), jax.ShapeDtypeStruct(b_shape, dtype))
        assert "tpu_custom_call" in lowered


def test_jobs_give_the_same_yaml(helionc, tmp_path):
    """-j searches calls on several threads; each search depends only on its call and the seed."""
    texts = []
    for jobs in (1, 3):
        out = tmp_path / f"attention_lse_j{jobs}.yaml"
        proc = helionc.run(["samples/attention_lse.py", "--autotune", "-q", "-j", str(jobs),
                            "--shapes-file", "samples/attention_lse.shapes", "--config-out", str(out)])
        assert proc.returncode == 0, proc.stderr
        texts.append(out.read_text())
    assert texts[0] == texts[1]
    assert texts[0].count("  - shapes:") >= 5


def test_reordered_grid_runs_and_lowers(helionc, tmp_path, tpu_lower):
    """A call where the search puts tile_n outermost (`loop_orders: [[1, 0]]`): with 128-row and
    128-column blocks over x [130, 256] and y [256, 200], the order as written reads x once and
    y once per row block; reordered, y (the larger) once and x once per column block. The module
    with that order matches numpy in interpret mode and lowers for TPU."""
    yaml_path, module_path = tmp_path / "bias.yaml", tmp_path / "bias_pallas.py"
    proc = helionc.run(["samples/matmul_unit_bias.py", "--autotune", "-q", "--target", "tpu-v7x",
                        "--shapes", "x=130x256:f32,y=256x200:f32,bias=1x1:f32",
                        "--config-out", str(yaml_path), "-o", str(module_path)])
    assert proc.returncode == 0, proc.stderr
    assert "loop_orders: [[1, 0]]" in yaml_path.read_text()
    module = import_module(module_path, "helionc_e2e.autotune.matmul_unit_bias")
    rng = np.random.default_rng(1)
    x = jnp.asarray(rng.standard_normal((130, 256)), jnp.float32)
    y = jnp.asarray(rng.standard_normal((256, 200)), jnp.float32)
    bias = jnp.asarray(rng.standard_normal((1, 1)), jnp.float32)
    got = np.asarray(module.matmul_bias(x, y, bias, interpret=True), np.float64)
    want = np.asarray(x, np.float64) @ np.asarray(y, np.float64) + np.asarray(bias, np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-3)
    lowered = tpu_lower(lambda a, b, c: module.matmul_bias(a, b, c, interpret=False),
                        jax.ShapeDtypeStruct(x.shape, x.dtype), jax.ShapeDtypeStruct(y.shape, y.dtype),
                        jax.ShapeDtypeStruct(bias.shape, bias.dtype))
    assert "tpu_custom_call" in lowered
