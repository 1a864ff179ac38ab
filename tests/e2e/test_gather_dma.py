"""Row gathers from tables too large for VMEM: samples/embedding.py with both gather paths.

`weight[x_flat[tile_b], tile_e]` runs either as a one-hot matmul over a table block (small
tables) or, from tables over `_GATHER_ONE_HOT_ROWS` rows (or whose one-hot would not fit), by
copying each row of the block from the table left in HBM by DMA at an index read from SMEM.
`_gather_plan` decides while JAX traces; these tests force each path on the same shapes by
setting the generated module's `_GATHER_ONE_HOT_ROWS`, and check which path ran by counting
the helpers' calls. test_samples.py runs the sample with the rule as it is.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from jax._src.pallas.mosaic.interpret import interpret_pallas_call
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu

from conftest import import_module
from e2e_support import BFLOAT16

CONFIGS = {"b8x128": (8, 128), "b32x256": (32, 256)}

# (vocab, dim, batch, seq): dividing blocks and not, in both dimensions; dims not a multiple
# of 128 make the DMA path copy whole rows.
SHAPES = [
    (300, 256, 4, 64),  # 256 ids, 256 columns: every block whole
    (300, 384, 3, 100),  # 300 ids: a partial last block of ids; 384 columns: 128 divides, 256 not
    (50, 300, 4, 100),  # 300 columns: whole rows
    (7, 130, 2, 9),  # fewer ids than one block
]


@pytest.fixture(scope="module", params=list(CONFIGS))
def module(request, helionc):
    config_id = request.param
    path = helionc.compile("embedding", "embedding", f"dma-{config_id}", CONFIGS[config_id])
    return import_module(path, f"helionc_gather_dma.{config_id}")


class Paths:
    """Counts the gather helpers' calls while JAX traces (one per traced kernel)."""

    def __init__(self, module, monkeypatch):
        self.dma = self.one_hot = 0
        dma, one_hot = module._gather_rows_dma, module._gather_rows

        def counted_dma(*args):
            self.dma += 1
            return dma(*args)

        def counted_one_hot(*args):
            self.one_hot += 1
            return one_hot(*args)

        monkeypatch.setattr(module, "_gather_rows_dma", counted_dma)
        monkeypatch.setattr(module, "_gather_rows", counted_one_hot)


def inputs(vocab, dim, batch, seq, dtype, seed=0):
    rng = np.random.default_rng(seed)
    weight = rng.standard_normal((vocab, dim)).astype(dtype)
    x = rng.integers(0, vocab, (batch, seq)).astype(np.int32)
    x.flat[0], x.flat[-1] = vocab - 1, 0  # both ends of the table
    return x, weight


@pytest.mark.parametrize("path", ["dma", "one_hot"])
@pytest.mark.parametrize("dtype", [np.float32, BFLOAT16], ids=["f32", "bf16"])
@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: "x".join(map(str, s)))
def test_both_paths_match_numpy(module, monkeypatch, path, dtype, shape):
    monkeypatch.setattr(module, "_GATHER_ONE_HOT_ROWS", 0 if path == "dma" else 1 << 30)
    paths = Paths(module, monkeypatch)
    x, weight = inputs(*shape, dtype)
    got = module.embedding(jnp.asarray(x), jnp.asarray(weight), interpret=True)
    assert got.dtype == weight.dtype and got.shape == (*x.shape, weight.shape[1])
    np.testing.assert_array_equal(np.asarray(got), weight[x])  # a copy: exact
    assert (paths.dma, paths.one_hot) == ((1, 0) if path == "dma" else (0, 1))


@pytest.mark.parametrize("dtype", [np.float32, BFLOAT16], ids=["f32", "bf16"])
def test_dma_path_has_no_races(module, monkeypatch, dtype):
    """TPU simulation with race detection: all copies of a block are waited for before the
    block is read, and the buffer is reused only after that read."""
    monkeypatch.setattr(module, "_GATHER_ONE_HOT_ROWS", 0)
    paths = Paths(module, monkeypatch)
    # 80 ids: several blocks of them, the last partial in the 32-row config, so that buffers
    # are reused across steps (each step costs the simulator a second or so).
    x, weight = inputs(300, 384, 2, 40, dtype, seed=1)
    got = module.embedding(
        jnp.asarray(x), jnp.asarray(weight), interpret=pltpu.InterpretParams(detect_races=True)
    )
    np.testing.assert_array_equal(np.asarray(got), weight[x])
    assert paths.dma == 1
    assert interpret_pallas_call.races is not None
    assert not interpret_pallas_call.races.races_found


def test_race_detection_sees_a_read_before_the_wait(module, monkeypatch):
    """The check above can fail: reading the rows before waiting for their copies is a race."""
    monkeypatch.setattr(module, "_GATHER_ONE_HOT_ROWS", 0)

    def early_read(table, ids, index, start, column, rows, sem):
        block, width = rows.shape

        def copy(r):
            return pltpu.make_async_copy(
                table.at[pl.ds(ids[start + r], 1), pl.ds(column, width)],
                rows.at[pl.ds(r, 1)],
                sem,
            )

        count = jnp.clip(ids.shape[0] - start, 0, block)
        jax.lax.fori_loop(0, count, lambda r, c: (copy(r).start(), c)[1], 0)
        value = rows[...]
        jax.lax.fori_loop(0, count, lambda r, c: (copy(r).wait(), c)[1], 0)
        return value

    monkeypatch.setattr(module, "_gather_rows_dma", early_read)
    x, weight = inputs(300, 256, 2, 64, np.float32, seed=2)
    module.embedding(jnp.asarray(x), jnp.asarray(weight), interpret=pltpu.InterpretParams(detect_races=True))
    assert interpret_pallas_call.races.races_found


def test_indices_outside_the_table_never_read_outside_it(module, monkeypatch):
    """TPU simulation raises on out-of-bounds DMAs: an index outside [0, vocab) is clamped (its
    row is unspecified; PyTorch would raise), the others are exact."""
    monkeypatch.setattr(module, "_GATHER_ONE_HOT_ROWS", 0)
    x, weight = inputs(300, 256, 2, 64, np.float32, seed=3)
    bad = np.zeros(x.shape, bool)
    bad.flat[[3, 70]] = True
    x.flat[3], x.flat[70] = 300 + 5, -4
    got = np.asarray(module.embedding(jnp.asarray(x), jnp.asarray(weight), interpret="tpu"))
    np.testing.assert_array_equal(got[~bad], weight[np.clip(x, 0, 299)][~bad])


@pytest.mark.parametrize("vocab,dim,dtype,path", [
    (32000, 512, jnp.bfloat16, "dma"),  # the rule's own choice for a large table
    (50, 300, jnp.float32, "one_hot"),
    (3000, 200, jnp.float32, "dma"),  # whole rows
])
def test_lowers_for_tpu(module, monkeypatch, tpu_lower, vocab, dim, dtype, path):
    paths = Paths(module, monkeypatch)
    text = tpu_lower(
        lambda x, w: module.embedding(x, w, interpret=False),
        jax.ShapeDtypeStruct((16, 64), jnp.int32),
        jax.ShapeDtypeStruct((vocab, dim), dtype),
    )
    assert "tpu_custom_call" in text
    assert (paths.dma, paths.one_hot) == ((1, 0) if path == "dma" else (0, 1))


def test_the_rule(module):
    """`_gather_plan(table, rows, columns) -> (by_dma, columns)`: README "Decisions"."""
    plan = module._gather_plan

    def table(vocab, dim, dtype=jnp.float32):
        return jax.ShapeDtypeStruct((vocab, dim), dtype)

    assert plan(table(1000, 256), 256, 256) == (False, 256)
    assert plan(table(2048, 512, jnp.bfloat16), 256, 512) == (False, 512)
    assert plan(table(2049, 512, jnp.bfloat16), 256, 512) == (True, 512)  # too many rows
    assert plan(table(2048, 2048), 256, 2048) == (True, 2048)  # a 16 MiB table block
    assert plan(table(2048, 128), 2048, 128) == (True, 128)  # a 16 MiB one-hot
    assert plan(table(32000, 512, jnp.bfloat16), 256, 512) == (True, 512)
    # DMA column blocks divide the rows: the largest multiple of 128 that does, else whole rows
    assert plan(table(5000, 640), 256, 512) == (True, 128)
    assert plan(table(5000, 768), 256, 512) == (True, 384)
    assert plan(table(5000, 300), 256, 256) == (True, 300)
    assert plan(table(5000, 300), 256, 300) == (True, 300)
