"""Loop-invariant values computed once before an inner loop (passes/plan_hoists.h): a `let` and
a part of a statement that read only values from before the loop move out of it under
`fori_loop` and `emit_pipeline`. Checked against numpy in interpret mode under every strategy,
with partial blocks along both loops, a loop with no steps (its range starts at its end: the
moved values are computed for nothing and the result is the carried value's start), and
compiled for tpu7x.
"""

from __future__ import annotations

import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module

STRATEGIES = ("fori_loop", "emit_pipeline", "grid", "unroll")

ROW_SCORES = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_scores(x: torch.Tensor, y: torch.Tensor, start: int, scale: float) -> torch.Tensor:
    m, d = x.size()
    n, d2 = y.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        xs = x[tile_m, :].to(torch.float32)
        best = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        for tile_n in hl.tile(start, n):
            q = xs * scale
            s = hl.dot(q, y[tile_n, :].to(torch.float32).T)
            s = s + torch.sum(xs * xs, -1)[:, None]
            best = torch.maximum(best, s.amax(-1))
        out[tile_m] = best
    return out
"""


def compile_kernel(helionc, tmp_path, loop_type):
    path = tmp_path / "row_scores.py"
    path.write_text(ROW_SCORES)
    config = tmp_path / "row_scores.yaml"
    config.write_text("schema_version: 1\nkernel: row_scores\ndefault:\n"
                      f"  block_sizes: [8, 128]\n  pallas_loop_type: [{loop_type}]\n")
    out = tmp_path / "row_scores_pallas.py"
    proc = helionc.run([str(path), "--config", str(config), "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    return import_module(out, f"helionc_e2e.loop_invariants.{loop_type}")


def expected(x, y, start, scale):
    x64, y64 = x.astype(np.float64), y.astype(np.float64)
    if start >= y.shape[0]:
        return np.full((x.shape[0],), -np.inf)
    scores = (x64 * scale) @ y64[start:].T + (x64 * x64).sum(-1)[:, None]
    return scores.max(-1)


@pytest.mark.parametrize("loop_type", STRATEGIES)
@pytest.mark.parametrize("m,n,d,start", [(16, 256, 128, 0), (20, 300, 64, 0), (20, 300, 64, 130),
                                         (20, 300, 64, 300)])
def test_row_scores(helionc, tmp_path, loop_type, m, n, d, start):
    module = compile_kernel(helionc, tmp_path, loop_type)
    rng = np.random.default_rng(m * n + start)
    x = rng.standard_normal((m, d)).astype(np.float32)
    y = rng.standard_normal((n, d)).astype(np.float32)
    got = module.row_scores(jnp.asarray(x), jnp.asarray(y), start, 0.5, interpret=True)
    np.testing.assert_allclose(np.asarray(got), expected(x, y, start, 0.5), rtol=1e-3, atol=1e-3)


def test_moved_values_print_before_the_loop(helionc, tmp_path):
    compile_kernel(helionc, tmp_path, "fori_loop")
    text = (tmp_path / "row_scores_pallas.py").read_text()
    before, _, body = text.partition("def tile_n_step(")
    # The statement may wrap in parentheses: its source comment names the file's (temporary) path.
    moved = re.compile(r"q = \(?\s*xs \* scale")
    assert moved.search(before) and "_invariant = " in before
    assert not moved.search(body.split("jax.lax.fori_loop(")[0])


@pytest.mark.parametrize("loop_type", ("fori_loop", "emit_pipeline"))
def test_row_scores_compile_for_tpu(helionc, tmp_path, tpu_lower, loop_type):
    module = compile_kernel(helionc, tmp_path, loop_type)
    tpu_lower(lambda x, y: module.row_scores(x, y, 0, 0.5, interpret=False),
              jax.ShapeDtypeStruct((64, 128), jnp.bfloat16),
              jax.ShapeDtypeStruct((1024, 128), jnp.bfloat16))
