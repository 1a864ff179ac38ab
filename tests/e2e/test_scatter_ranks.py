"""Stores through a tile of indices into arrays of rank 3 and more (`table[ids[tile], :, :] =
v`; templates/helper_scatter.py.tmpl): the one-hot scatter handled blocks of rank 1 and 2 only,
and a 4-D table failed while JAX traced (test_pallas.py's `gather_and_store`: `jnp.where` could
not broadcast (512, 1) against (512, 3, 4, 128)). Along the first and a middle axis, with a
partial last tile (its padding stores nothing), repeated indices (the last store counts) and
scatter-adds. Checked against numpy in interpret mode.
"""

from __future__ import annotations

import jax.numpy as jnp
import ml_dtypes
import numpy as np
import pytest

from conftest import import_module

DTYPES = {"f32": np.float32, "bf16": ml_dtypes.bfloat16, "i32": np.int32}


def compile_source(helionc, tmp_path, source, name):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    proc = helionc.run([str(path), "-o", str(tmp_path / f"{name}_pallas.py")])
    assert proc.returncode == 0, proc.stderr
    return import_module(tmp_path / f"{name}_pallas.py", f"helionc_e2e.scatter_ranks.{name}")


def values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-50, 50, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# test_pallas.py's spelling: gather rows of a 4-D table, store them to an output and back.
GATHER_AND_STORE = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def gather_and_store(
    indices: torch.Tensor, table: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    out = torch.empty([indices.size(0), *table.shape[1:]], dtype=table.dtype, device=table.device)
    for _ in hl.grid(1):
        for tile_b in hl.tile(indices.size(0)):
            selected_indices = hl.load(indices, [tile_b])
            selected = hl.load(table, [selected_indices, slice(None), slice(None), slice(None)])
            out[tile_b, :, :, :] = selected
            hl.store(table, [selected_indices, slice(None), slice(None), slice(None)], selected)
    return out, table
"""


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
def test_gather_and_store(helionc, tmp_path, dtype):
    module = compile_source(helionc, tmp_path, GATHER_AND_STORE, "gather_and_store")
    indices = (np.arange(128, dtype=np.int32) * 3) % 64
    table = values((64, 3, 4, 128), DTYPES[dtype])
    out, stored = module.gather_and_store(jnp.asarray(indices), jnp.asarray(table), interpret=True)
    np.testing.assert_array_equal(np.asarray(out), table[indices])
    np.testing.assert_array_equal(np.asarray(stored), table)


# Rows of a 3-D array set from a tile of indices, as a subscript; the second index repeats
# the first, so the last store counts.
ROWS_3D = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def rows_3d(table: torch.Tensor, ids: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    for tile in hl.tile(ids.size(0)):
        table[ids[tile], :, :] = x[tile, :, :] * 2
    return table
"""


@pytest.mark.parametrize("dtype", ["f32", "bf16", "i32"])
@pytest.mark.parametrize("count", [24, 13])
def test_rows_of_three_dimensions(helionc, tmp_path, dtype, count):
    module = compile_source(helionc, tmp_path, ROWS_3D, "rows_3d")
    table = values((40, 8, 128), DTYPES[dtype])
    ids = np.random.default_rng(count).permutation(40)[:count].astype(np.int32)
    ids[1] = ids[0]
    x = values((count, 8, 128), DTYPES[dtype], seed=1)
    got = module.rows_3d(jnp.asarray(table), jnp.asarray(ids), jnp.asarray(x), interpret=True)
    want = table.copy()
    for i, row in enumerate(ids):
        want[row] = x[i] * 2
    np.testing.assert_array_equal(np.asarray(got), want)


# A middle axis of a 3-D array, and a scatter-add along the first axis of a 4-D one.
MIDDLE_AXIS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def middle_axis(table: torch.Tensor, ids: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    for tile in hl.tile(ids.size(0)):
        table[:, ids[tile], :] = x[:, tile, :]
    return table
"""

ADD_4D = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def add_4d(totals: torch.Tensor, ids: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
    for tile in hl.tile(ids.size(0)):
        hl.atomic_add(totals, [ids[tile], slice(None), slice(None), slice(None)], x[tile, :, :, :])
    return totals
"""


@pytest.mark.parametrize("count", [16, 11])
def test_middle_axis(helionc, tmp_path, count):
    module = compile_source(helionc, tmp_path, MIDDLE_AXIS, "middle_axis")
    table = values((4, 32, 128), np.float32)
    ids = np.random.default_rng(count).permutation(32)[:count].astype(np.int32)
    x = values((4, count, 128), np.float32, seed=1)
    got = module.middle_axis(jnp.asarray(table), jnp.asarray(ids), jnp.asarray(x), interpret=True)
    want = table.copy()
    want[:, ids, :] = x
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.mark.parametrize("dtype", ["f32", "i32"])
def test_scatter_add_four_dimensions(helionc, tmp_path, dtype):
    module = compile_source(helionc, tmp_path, ADD_4D, "add_4d")
    totals = values((10, 2, 8, 128), DTYPES[dtype])
    ids = (np.arange(20, dtype=np.int32) * 7) % 10
    x = values((20, 2, 8, 128), DTYPES[dtype], seed=1)
    got = module.add_4d(jnp.asarray(totals), jnp.asarray(ids), jnp.asarray(x), interpret=True)
    want = totals.astype(np.float64)
    np.add.at(want, ids, x.astype(np.float64))
    np.testing.assert_allclose(np.asarray(got).astype(np.float64), want, rtol=1e-5, atol=1e-4)
