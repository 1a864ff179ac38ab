"""An output read and then stored in an inner loop whose steps all update one block
(`for tile_n in hl.tile(n): out[tile_m, :] = out[tile_m, :] + ...`; passes/plan_launches.cpp,
Output::copied_in_at_entry): from the second step on, the read must see the store of the step
before. It used to read the launch's copy of the old contents at every step, so only the last
step counted (test_pallas.py's `outer_in_inner`, silently wrong). Under every strategy that
applies to a loop that stores, with `+=` and with the read written out, one and two nested loops, an output
that starts from values of its own; checked against numpy in interpret mode and for tpu7x.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module
# The strategies of a loop that stores (fori_loop and emit_pipeline stream reads only).
STORING = ("unroll", "grid")


def compile_source(helionc, tmp_path, source, name, loop_types=None):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    args = [str(path), "-o", str(tmp_path / f"{name}_pallas.py")]
    if loop_types:
        config = tmp_path / f"{name}.yaml"
        config.write_text(f"schema_version: 1\nkernel: {name}\ndefault:\n"
                          f"  pallas_loop_type: [{', '.join(loop_types)}]\n")
        args += ["--config", str(config)]
    proc = helionc.run(args)
    assert proc.returncode == 0, proc.stderr
    return import_module(tmp_path / f"{name}_pallas.py",
                         f"helionc_e2e.inner_rmw.{name}_{'_'.join(loop_types or [])}")


ROW_SUMS_INTO = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_sums_into(x: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    for tile_m in hl.tile(m):
        for tile_n in hl.tile(n):
            out[tile_m, :] = out[tile_m, :] + x[tile_m, tile_n].sum(dim=1, keepdim=True)
    return out
"""

ROW_SUMS_ADD = ROW_SUMS_INTO.replace("row_sums_into", "row_sums_add").replace(
    "out[tile_m, :] = out[tile_m, :] + ", "out[tile_m, :] += ")


@pytest.mark.parametrize("source,name", [(ROW_SUMS_INTO, "row_sums_into"),
                                         (ROW_SUMS_ADD, "row_sums_add")])
@pytest.mark.parametrize("loop_type", STORING)
@pytest.mark.parametrize("shape", [(16, 512), (10, 300)])
def test_row_sums(helionc, tmp_path, source, name, loop_type, shape):
    module = compile_source(helionc, tmp_path, source, name, [loop_type])
    rng = np.random.default_rng(shape[1])
    x = rng.standard_normal(shape).astype(np.float32)
    out = rng.standard_normal((shape[0], 128)).astype(np.float32)
    got = getattr(module, name)(jnp.asarray(x), jnp.asarray(out), interpret=True)
    want = out.astype(np.float64) + x.astype(np.float64).sum(1, keepdims=True)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-4)


# Helion's spelling: segments of rows by offsets under `hl.grid`, two nested loops.
SEGMENT_PAIRS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def segment_pairs(x: torch.Tensor, y: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    A = hl.specialize(x.size(1))
    B = hl.specialize(x.size(2))
    out = torch.zeros([offsets.size(0) - 1, A, B], dtype=x.dtype, device=x.device)
    for seg in hl.grid(offsets.size(0) - 1):
        start = offsets[seg]
        end = offsets[seg + 1]
        for tile_i in hl.tile(start, end, block_size=32):
            for tile_j in hl.tile(start, end, block_size=32):
                out[seg, :, :] = (
                    out[seg, :, :] + x[tile_i, :, :].sum(dim=0) + y[tile_j, :, :].sum(dim=0)
                )
    return out
"""


@pytest.mark.parametrize("loop_types", [("unroll", "unroll")])  # nested: unroll only
def test_segment_pairs(helionc, tmp_path, loop_types):
    module = compile_source(helionc, tmp_path, SEGMENT_PAIRS, "segment_pairs", list(loop_types))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((128, 8, 128)).astype(np.float32)
    y = rng.standard_normal((128, 8, 128)).astype(np.float32)
    offsets = np.array([0, 64, 96, 128], np.int32)
    got = module.segment_pairs(jnp.asarray(x), jnp.asarray(y), jnp.asarray(offsets),
                               interpret=True)
    want = np.zeros((3, 8, 128))
    for seg in range(3):
        s, e = offsets[seg], offsets[seg + 1]
        for i in range(s, e, 32):
            for j in range(s, e, 32):
                want[seg] += x[i:i + 32].sum(0) + y[j:j + 32].sum(0)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-3)


@pytest.mark.parametrize("loop_type", STORING)
def test_row_sums_compile_for_tpu(helionc, tmp_path, tpu_lower, loop_type):
    module = compile_source(helionc, tmp_path, ROW_SUMS_INTO, "row_sums_into", [loop_type])
    tpu_lower(lambda x, out: module.row_sums_into(x, out, interpret=False),
              jax.ShapeDtypeStruct((16, 512), jnp.float32),
              jax.ShapeDtypeStruct((16, 128), jnp.float32))


# Rows under `hl.grid`: the block is the row the grid step picks, and the inner loop keeps it.
GRID_ROWS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def grid_rows(x: torch.Tensor, out: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    for i in hl.grid(m):
        for tile_n in hl.tile(n):
            out[i, :] = out[i, :] + x[i, tile_n].sum()
    return out
"""


@pytest.mark.parametrize("loop_type", STORING)
@pytest.mark.parametrize("shape", [(8, 512), (5, 300)])
def test_grid_rows(helionc, tmp_path, loop_type, shape):
    module = compile_source(helionc, tmp_path, GRID_ROWS, "grid_rows", [loop_type])
    rng = np.random.default_rng(shape[1])
    x = rng.standard_normal(shape).astype(np.float32)
    out = rng.standard_normal((shape[0], 128)).astype(np.float32)
    got = module.grid_rows(jnp.asarray(x), jnp.asarray(out), interpret=True)
    want = out.astype(np.float64) + x.astype(np.float64).sum(1, keepdims=True)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-4, atol=1e-3)
