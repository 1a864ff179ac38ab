"""Loops whose blocks are kept at one row (`hl.tile(n, block_size=1)` whose `tile.begin`,
`tile.id` or `tile.count` the kernel reads; passes/plan_views.h, `one_row`) over an array's
second-to-last axis.

A block of one row there is not legal on the TPU unless the axis has one row, and the module
used to raise while JAX traced (test_pallas.py's `pallas_bf16_dynamic_window_1d`). The array is
now passed with a unit axis after that one, (m, n) -> (m, 1, n): the tile's axis is squeezed out
of the block, which is (1, n) as before. Checked against numpy in interpret mode, and compiled
for tpu7x.
"""

from __future__ import annotations

import jax
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
    return import_module(tmp_path / f"{name}_pallas.py", f"helionc_e2e.one_row.{name}")


def values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "i":
        return rng.integers(-50, 50, shape).astype(dtype)
    return rng.standard_normal(shape).astype(dtype)


# test_pallas.py's spelling: each row a window of a table at a start read from SMEM.
WINDOWS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def windows(table: torch.Tensor, starts: torch.Tensor) -> torch.Tensor:
    out = torch.empty([starts.size(0), 128], dtype=table.dtype, device=table.device)
    for tile in hl.tile(starts.size(0), block_size=1):
        begin = starts[tile.begin] * 128
        out[tile, :] = table[begin + hl.arange(128)][None, :]
    return out
"""


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize("rows", [2, 9, 1])
def test_windows(helionc, tmp_path, dtype, rows):
    module = compile_source(helionc, tmp_path, WINDOWS, "windows")
    table = values(128 * 4, DTYPES[dtype])
    starts = np.arange(rows, dtype=np.int32) % 4
    got = module.windows(jnp.asarray(table), jnp.asarray(starts), interpret=True)
    np.testing.assert_array_equal(np.asarray(got), np.stack([table[s * 128:s * 128 + 128]
                                                             for s in starts]))


def test_windows_compile_for_tpu(helionc, tmp_path, tpu_lower):
    module = compile_source(helionc, tmp_path, WINDOWS, "windows")
    tpu_lower(lambda t, s: module.windows(t, s, interpret=False),
              jax.ShapeDtypeStruct((512,), jnp.float32), jax.ShapeDtypeStruct((9,), jnp.int32))


# Rows read and written through the tile, numbered by `tile.id` (an input and an output).
NUMBERED_ROWS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def numbered_rows(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile in hl.tile(m, block_size=1):
        out[tile, :] = x[tile, :] * 2 + tile.id
    return out
"""


@pytest.mark.parametrize("dtype", ["f32", "bf16", "i32"])
@pytest.mark.parametrize("shape", [(16, 256), (5, 130), (1, 128)])
def test_numbered_rows(helionc, tmp_path, dtype, shape):
    module = compile_source(helionc, tmp_path, NUMBERED_ROWS, "numbered_rows")
    x = values(shape, DTYPES[dtype])
    got = np.asarray(module.numbered_rows(jnp.asarray(x), interpret=True))
    want = x.astype(np.float64) * 2 + np.arange(shape[0])[:, None]
    np.testing.assert_allclose(got.astype(np.float64), want, rtol={"bf16": 1e-2, "f32": 1e-6, "i32": 0}[dtype])


@pytest.mark.parametrize("dtype", ["f32", "bf16", "i32"])
def test_numbered_rows_compile_for_tpu(helionc, tmp_path, tpu_lower, dtype):
    module = compile_source(helionc, tmp_path, NUMBERED_ROWS, "numbered_rows")
    tpu_lower(lambda x: module.numbered_rows(x, interpret=False),
              jax.ShapeDtypeStruct((16, 256), jnp.dtype(DTYPES[dtype])))


# A 3-D array whose middle axis is the one-row tile, from a begin, scaled by a scalar read
# at `tile.begin` of another array.
FROM_BEGIN_3D = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scaled_from(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    b, m, n = x.size()
    out = torch.zeros_like(x)
    for tile_b, tile_m in hl.tile([b, m], block_size=[None, 1]):
        out[tile_b, tile_m, :] = x[tile_b, tile_m, :] * scale[tile_m.begin]
    return out
"""


@pytest.mark.parametrize("shape", [(2, 12, 128), (3, 5, 200)])
def test_three_dimensions(helionc, tmp_path, shape):
    module = compile_source(helionc, tmp_path, FROM_BEGIN_3D, "scaled_from")
    x = values(shape, np.float32)
    scale = values((shape[1],), np.float32, seed=1)
    got = np.asarray(module.scaled_from(jnp.asarray(x), jnp.asarray(scale), interpret=True))
    np.testing.assert_allclose(got, x * scale[None, :, None], rtol=1e-6)


def test_three_dimensions_compile_for_tpu(helionc, tmp_path, tpu_lower):
    module = compile_source(helionc, tmp_path, FROM_BEGIN_3D, "scaled_from")
    tpu_lower(lambda x, s: module.scaled_from(x, s, interpret=False),
              jax.ShapeDtypeStruct((2, 12, 128), jnp.float32),
              jax.ShapeDtypeStruct((12,), jnp.float32))


# A loop from a begin: the rows before it keep their zeros.
ROWS_FROM = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def rows_from(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros_like(x)
    for tile in hl.tile(3, m, block_size=1):
        out[tile, :] = x[tile, :] + tile.count
    return out
"""


@pytest.mark.parametrize("shape", [(10, 128), (4, 300)])
def test_rows_from_a_begin(helionc, tmp_path, shape):
    module = compile_source(helionc, tmp_path, ROWS_FROM, "rows_from")
    x = values(shape, np.float32)
    got = np.asarray(module.rows_from(jnp.asarray(x), interpret=True))
    want = np.zeros(shape, np.float32)
    want[3:] = x[3:] + (shape[0] - 3)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_rows_from_a_begin_compile_for_tpu(helionc, tmp_path, tpu_lower):
    module = compile_source(helionc, tmp_path, ROWS_FROM, "rows_from")
    tpu_lower(lambda x: module.rows_from(x, interpret=False),
              jax.ShapeDtypeStruct((10, 128), jnp.float32))
