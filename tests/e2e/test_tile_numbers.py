"""`tile.id` and `tile.count` of loops that start at a begin (docs/guide/kernels.md, "Registered block sizes
as values"): Helion's `tile.begin // block_size` and `cdiv(end - begin, block_size)` under every
`pallas_loop_type`, for outer and inner loops, one- and two-dimensional tiles, in the module and
in its reference.

The module numbers blocks from the array's start. An inner loop printed as a Python loop counted
its blocks as `cdiv(end, block)` (`hl.tile(4, 12, block_size=4)`: 3 where Helion counts 2), and
a grid axis numbered them from the loop's begin (id 0 where Helion's is 1); the reference
numbered its tiles from 0. Checked against numpy in interpret mode and for tpu7x.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module
from expectations import LOOP_STRATEGIES


def compile_source(helionc, tmp_path, source, name, loop_type=None):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    args = [str(path), "-o", str(tmp_path / f"{name}_pallas.py")]
    if loop_type is not None:
        config = tmp_path / f"{name}.yaml"
        config.write_text(f"schema_version: 1\nkernel: {name}\ndefault:\n"
                          f"  pallas_loop_type: [{loop_type}]\n")
        args += ["--config", str(config)]
    proc = helionc.run(args)
    assert proc.returncode == 0, proc.stderr
    return import_module(tmp_path / f"{name}_pallas.py",
                         f"helionc_e2e.tile_numbers.{name}_{loop_type}")


def numbers(begin, end, block):
    """(count, [id per tile]) as Helion defines them."""
    starts = range(begin, end, block)
    return len(starts), [s // block for s in starts]


# The inner loop reads `x`, so every strategy applies to it.
INNER_FROM_BEGIN = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def inner_numbers(x: torch.Tensor, begin: int) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(begin, n, block_size=128):
            acc = acc + x[tile_m, tile_n].sum(dim=1) + tile_n.count * 1000 + tile_n.id
        out[tile_m] = acc
    return out
"""


@pytest.mark.parametrize("loop_type", LOOP_STRATEGIES)
@pytest.mark.parametrize("begin,n", [(0, 640), (256, 640), (128, 600), (512, 520)])
def test_inner_loop_from_a_begin(helionc, tmp_path, loop_type, begin, n):
    module = compile_source(helionc, tmp_path, INNER_FROM_BEGIN, "inner_numbers", loop_type)
    x = np.random.default_rng(n).standard_normal((16, n)).astype(np.float32)
    count, ids = numbers(begin, n, 128)
    want = x[:, begin:].astype(np.float64).sum(1) + count * 1000 * len(ids) + sum(ids)
    for got in (module.inner_numbers(jnp.asarray(x), begin, interpret=True),
                module.reference_inner_numbers(jnp.asarray(x), begin)):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-3)


# Helion's own spelling (test_pallas.py's count_tiles): literal bounds, no input in the loop,
# a `hl.grid` around it; a loop that tiles no input runs as a Python loop or a grid axis.
LITERAL_BOUNDS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def literal_bounds(out: torch.Tensor) -> None:
    for _ in hl.grid(1):
        acc = hl.zeros([1, 128], dtype=torch.float32)
        for tile in hl.tile(4, 12, block_size=4):
            acc = acc + tile.count * 10 + tile.id
        out[0:1, :] = acc
"""


@pytest.mark.parametrize("loop_type", ["unroll", "grid"])
def test_literal_bounds(helionc, tmp_path, loop_type):
    module = compile_source(helionc, tmp_path, LITERAL_BOUNDS, "literal_bounds", loop_type)
    out = jnp.zeros((1, 128), jnp.float32)
    # Two tiles, [4, 8) and [8, 12): counts of 2, ids 1 and 2.
    for got in (module.literal_bounds(out, interpret=True), module.reference_literal_bounds(out)):
        np.testing.assert_array_equal(np.asarray(got), np.full((1, 128), 43.0, np.float32))


# An outer loop (a grid axis) from a begin; its id also indexes a store.
OUTER_FROM_BEGIN = """
import torch
import helion
import helion.language as hl


@helion.kernel()
def outer_numbers(x: torch.Tensor, begin: int) -> torch.Tensor:
    n, m = x.size()
    out = torch.zeros([n, m], dtype=torch.int32, device=x.device)
    for tile in hl.tile(begin, n, block_size=8):
        out[tile, :] = x[tile, :].to(torch.int32) * 0 + tile.count * 100 + tile.id
    return out
"""


@pytest.mark.parametrize("begin", [0, 16, 10])
def test_outer_loop_from_a_begin(helionc, tmp_path, begin):
    """The module's blocks start at multiples of the block, Helion's at the loop's begin: the
    same numbering when the block divides the begin, else a refusal."""
    module = compile_source(helionc, tmp_path, OUTER_FROM_BEGIN, "outer_numbers")
    n = 40
    x = jnp.zeros((n, 128), jnp.float32)
    if begin % 8:
        with pytest.raises(ValueError, match=r"outer_numbers.py:11: the kernel reads `tile.id` or "
                                             r"`tile.count` of this loop, or indexes with its "
                                             r"`tile.begin` or `tile.end`, and the source fixes "
                                             r"its block size, so its blocks of 8 must start at "
                                             r"its begin, 10"):
            module.outer_numbers(x, begin, interpret=True)
        return
    count, _ = numbers(begin, n, 8)
    want = np.zeros((n, 128), np.int32)
    want[begin:] = (count * 100 + np.arange(begin, n) // 8)[:, None]
    np.testing.assert_array_equal(np.asarray(module.outer_numbers(x, begin, interpret=True)), want)
    np.testing.assert_array_equal(np.asarray(module.reference_outer_numbers(x, begin)), want)


SUMS_AT_ID = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def sums_at_id(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.zeros([(n + 127) // 128], dtype=torch.float32, device=x.device)
    for tile in hl.tile(256, n, block_size=128):
        out[tile.id] = x[tile].sum(dim=0)
    return out
"""


@pytest.mark.parametrize("n", [1024, 1000])
def test_id_as_store_index(helionc, tmp_path, n):
    """`out[tile.id]`: the blocks before the begin keep their zeros."""
    module = compile_source(helionc, tmp_path, SUMS_AT_ID, "sums_at_id")
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    want = np.array([x[s:s + 128].astype(np.float64).sum() if s >= 256 else 0.0
                     for s in range(0, n, 128)])
    for got in (module.sums_at_id(jnp.asarray(x), interpret=True),
                module.reference_sums_at_id(jnp.asarray(x))):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-4)


TWO_DIMENSIONS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def numbered_2d(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros([m, n], dtype=torch.float32, device=x.device)
    for tile_m, tile_n in hl.tile([16, 256], [m, n], block_size=[8, 128]):
        out[tile_m, tile_n] = (
            x[tile_m, tile_n] + tile_m.count * 1000 + tile_m.id * 100 + tile_n.count * 10 + tile_n.id
        )
    return out
"""


@pytest.mark.parametrize("m,n", [(40, 640), (36, 600)])
def test_two_dimensions_from_begins(helionc, tmp_path, m, n):
    module = compile_source(helionc, tmp_path, TWO_DIMENSIONS, "numbered_2d")
    x = np.random.default_rng(m).standard_normal((m, n)).astype(np.float32)
    count_m, _ = numbers(16, m, 8)
    count_n, _ = numbers(256, n, 128)
    want = np.zeros((m, n))
    rows, cols = np.arange(16, m)[:, None], np.arange(256, n)[None, :]
    want[16:, 256:] = (x[16:, 256:] + count_m * 1000 + rows // 8 * 100 + count_n * 10 + cols // 128)
    for got in (module.numbered_2d(jnp.asarray(x), interpret=True),
                module.reference_numbered_2d(jnp.asarray(x))):
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-5, atol=1e-3)


@pytest.mark.parametrize("loop_type", LOOP_STRATEGIES)
def test_inner_loop_from_a_begin_compiles_for_tpu(helionc, tmp_path, tpu_lower, loop_type):
    module = compile_source(helionc, tmp_path, INNER_FROM_BEGIN, "inner_numbers", loop_type)
    fn = lambda x: module.inner_numbers(x, 256, interpret=False)
    tpu_lower(fn, jax.ShapeDtypeStruct((16, 640), jnp.float32))
