"""Blocks whose size the kernel observes (passes/kept_blocks.h; docs/guide/kernels.md, "Registered block
sizes as values"): the module uses exactly the block it asks for, or raises while JAX traces.

A block size fixed in the source whose `tile.id`/`tile.count` the kernel reads is Helion's
numbering: `_legal_block` used to widen `hl.tile(n, block_size=64)` to 128 lanes (or to the
whole of n = 100), so `out[tile.id]` silently summed other blocks. A registered block size read
as a value (`cdiv(m, block_m)` in host code, `/ block_m` in device code) is computed once, and
the loops that tile with it keep that value; the trace-time VMEM fallback never halves it.
Checked against numpy in interpret mode, and for the refusals the message.
"""

from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module

FIXED_64 = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def sums_of_64(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.zeros([(n + 63) // 64], dtype=torch.float32, device=x.device)
    for tile in hl.tile(n, block_size=64):
        out[tile.id] = x[tile].to(torch.float32).sum(dim=0)
    return out
"""

FIXED_ROWS_8 = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def row_blocks(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros([(m + 7) // 8, n], dtype=torch.float32, device=x.device)
    for tile in hl.tile(m, block_size=8):
        out[tile.id, :] = x[tile, :].to(torch.float32).sum(dim=0) + tile.count
    return out
"""

REGISTERED_ONE_LOOP_OVER_OTHER = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def bounded_rows(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    block_n = hl.register_block_size(64)
    out = torch.empty([m, helion.cdiv(n, block_n)], dtype=torch.float32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n], block_size=[None, block_n]):
        out[tile_m, tile_n.id] = x[tile_m, tile_n].to(torch.float32).sum(dim=1)
    return out
"""


def compile_source(helionc, tmp_path, source, name, default=None):
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    args = [str(path), "-o", str(tmp_path / f"{name}_pallas.py")]
    if default is not None:
        config = tmp_path / f"{name}.yaml"
        config.write_text(f"schema_version: 1\nkernel: {name}\ndefault:\n{default}")
        args += ["--config", str(config)]
    proc = helionc.run(args)
    assert proc.returncode == 0, proc.stderr
    return import_module(tmp_path / f"{name}_pallas.py", f"helionc_e2e.kept_blocks.{name}")


@pytest.mark.parametrize("n", [64, 50, 1])
def test_fixed_block_numbering_one_block(helionc, tmp_path, n):
    """64 lanes are legal only as the whole dimension: n <= 64 is one block either way."""
    module = compile_source(helionc, tmp_path, FIXED_64, "sums_of_64")
    x = np.arange(n, dtype=np.float32)
    got = np.asarray(module.sums_of_64(jnp.asarray(x), interpret=True))
    np.testing.assert_allclose(got, [x[s:s + 64].sum() for s in range(0, n, 64)], rtol=1e-6)


@pytest.mark.parametrize("n", [100, 1000, 128])
def test_fixed_block_numbering_refused(helionc, tmp_path, n):
    """Blocks of 64 lanes over n > 64 are not legal on the TPU: refused, not computed with 128."""
    module = compile_source(helionc, tmp_path, FIXED_64, "sums_of_64")
    with pytest.raises(ValueError, match=(
            r"sums_of_64.py:11: the kernel reads `tile.id` or `tile.count` of this loop, or "
            r"indexes with its `tile.begin` or `tile.end`, and the source fixes its block size, "
            r"so its blocks must be 64 elements, but that block is "
            rf"not legal on the TPU for {n} elements along the lane \(last\) axis of a block "
            r"\(a multiple of 128, or the whole dimension\)")):
        module.sums_of_64(jnp.zeros((n,), jnp.float32), interpret=True)


@pytest.mark.parametrize("m", [8, 20, 64, 5])
def test_fixed_rows_keep_their_block(helionc, tmp_path, m):
    """8 rows are a legal sublane block: the source's numbering, for shapes that do and do not divide."""
    module = compile_source(helionc, tmp_path, FIXED_ROWS_8, "row_blocks")
    x = np.random.default_rng(m).standard_normal((m, 130)).astype(np.float32)
    got = np.asarray(module.row_blocks(jnp.asarray(x), interpret=True))
    count = -(-m // 8)
    want = np.stack([x[s:s + 8].astype(np.float64).sum(0) + count for s in range(0, m, 8)])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_registered_value_other_loop_size_refused(helionc, tmp_path):
    """`block_n` is legalised for its bound (64: the whole of it), then tiles n = 300 lanes:
    the loop cannot keep 64 lanes, so the call raises instead of using 128 or 300."""
    module = compile_source(helionc, tmp_path, REGISTERED_ONE_LOOP_OVER_OTHER, "bounded_rows",
                            "  block_sizes: [8, 64]\n")
    with pytest.raises(ValueError, match=r"bounded_rows.py:12: the kernel reads the value of "
                                         r"`block_n`, the block size of this loop, so its blocks "
                                         r"must be 64 elements"):
        module.bounded_rows(jnp.zeros((16, 300), jnp.float32), interpret=True)
    # n = 64: the bound is the dimension, one block of the whole 64 lanes.
    x = np.random.default_rng(0).standard_normal((16, 64)).astype(np.float32)
    got = np.asarray(module.bounded_rows(jnp.asarray(x), interpret=True))
    np.testing.assert_allclose(got, x.astype(np.float64).sum(1, keepdims=True), rtol=1e-5,
                               atol=1e-5)


WHOLE_ROWS_DEFAULT = f"  block_sizes: [256]\n  vmem_limit_bytes: {1 << 20}\n"

SCALED_ROWS = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def scaled_rows(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    block_m = hl.register_block_size(m)
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m, block_size=block_m):
        out[tile_m, :] = x[tile_m, :].to(torch.float32) / block_m
    return out * block_m
"""


def halvable_blocks(module, kernel, *args):
    """Per launch traced for `args`: the blocks the trace-time VMEM fallback may halve."""
    seen = []
    original = module._fit_vmem

    def record(config, launch, first, blocks, needs, fallbacks, halve, *rest):
        seen.append(tuple(halve))
        return original(config, launch, first, blocks, needs, fallbacks, halve, *rest)

    module._fit_vmem = record
    try:
        jax.eval_shape(lambda *a: getattr(module, kernel)(*a, interpret=True), *args)
    finally:
        module._fit_vmem = original
    return seen


def test_registered_value_is_not_halved(helionc, tmp_path):
    """A kernel that reads `block_m` (and no tile.id): the trace-time VMEM fallback may not
    halve its block (the host multiplied by the value before the launch); the same kernel with
    `block_m` passed only as `block_size=` may halve it."""
    module = compile_source(helionc, tmp_path, SCALED_ROWS, "scaled_rows", WHOLE_ROWS_DEFAULT)
    x = jax.ShapeDtypeStruct((512, 128), jnp.float32)
    assert halvable_blocks(module, "scaled_rows", x) == [()]
    for m in (512, 100):
        x = np.random.default_rng(m).standard_normal((m, 128)).astype(np.float32)
        got = np.asarray(module.scaled_rows(jnp.asarray(x), interpret=True))
        np.testing.assert_allclose(got, x, rtol=1e-6, atol=1e-6)
    unread = SCALED_ROWS.replace(" / block_m", "").replace(" * block_m", "")
    module = compile_source(helionc, tmp_path, unread, "scaled_rows", WHOLE_ROWS_DEFAULT)
    assert halvable_blocks(module, "scaled_rows", x) != [()]


def test_block_means_without_halving(helionc, tmp_path):
    """samples/block_means.py reads `tile.id` and `block_m`: 512 rows of 256 fit unhalved."""
    path = tmp_path / "block_means_pallas.py"
    config = tmp_path / "block_means.yaml"
    config.write_text(f"schema_version: 1\nkernel: block_means\ndefault:\n{WHOLE_ROWS_DEFAULT}")
    proc = helionc.run(["samples/block_means.py", "--config", str(config), "-o", str(path)])
    assert proc.returncode == 0, proc.stderr
    assert "halve" not in path.read_text().split("def block_means(")[1]
    module = import_module(path, "helionc_e2e.kept_blocks.block_means")
    x = np.random.default_rng(1).standard_normal((512, 256)).astype(np.float32)
    got = np.asarray(module.block_means(jnp.asarray(x), interpret=True))
    np.testing.assert_allclose(got, x.astype(np.float64).sum(0), rtol=1e-4, atol=1e-4)


BLOCK_MAXIMA = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def block_maxima(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros([m, (n + 127) // 128], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n], block_size=[None, 128]):
        col = tile_n.begin // 128
        out[tile_m, col] = x[tile_m, tile_n].amax(dim=1)
    return out
"""


@pytest.mark.parametrize("n", [128, 384, 130])
def test_fixed_block_begin_as_scalar_index(helionc, tmp_path, n):
    """`out[tile_m, tile_n.begin // 128]` stores one column per block of 128 lanes: a block
    widened to the whole of n = 130 would store one column for two blocks, so that block is
    refused (a block of 128 lanes over 130 is legal, so n = 130 runs with partial blocks)."""
    module = compile_source(helionc, tmp_path, BLOCK_MAXIMA, "block_maxima")
    x = np.random.default_rng(n).standard_normal((24, n)).astype(np.float32)
    got = np.asarray(module.block_maxima(jnp.asarray(x), interpret=True))
    blocks = (n + 127) // 128
    expected = np.stack([x[:, b * 128 : (b + 1) * 128].max(axis=1) for b in range(blocks)], 1)
    np.testing.assert_array_equal(got, expected)


BLOCK_MAXIMA_64 = BLOCK_MAXIMA.replace("128", "64")


def test_fixed_block_begin_as_scalar_index_refused(helionc, tmp_path):
    """Blocks of 64 lanes over 100 are not legal on the TPU: refused, not widened to 100 (one
    column stored for both blocks)."""
    module = compile_source(helionc, tmp_path, BLOCK_MAXIMA_64, "block_maxima")
    with pytest.raises(ValueError, match=r"indexes with its `tile.begin` or `tile.end`"):
        module.block_maxima(jnp.zeros((8, 100), jnp.float32), interpret=True)


BLOCK_AS_NUMBER = """
import torch
import helion
import helion.language as hl


@helion.kernel(static_shapes=True)
def per_block(x: torch.Tensor) -> torch.Tensor:
    (n,) = x.size()
    out = torch.empty([n], dtype=torch.float32, device=x.device)
    for tile in hl.tile(n, block_size=BLOCK):
        out[tile] = x[tile].to(torch.float32) / tile.block_size
    return out
"""


@pytest.mark.parametrize("n", [100, 128, 300, 1])
def test_block_size_as_number_is_the_source_block(helionc, tmp_path, n):
    """`tile.block_size` as a number is Helion's block, 128, also where the loop is shorter
    (100 elements: the module used to divide by 100, the whole dimension it made the block)."""
    module = compile_source(helionc, tmp_path, BLOCK_AS_NUMBER.replace("BLOCK", "128"),
                            "per_block")
    x = np.random.default_rng(n).standard_normal(n).astype(np.float32)
    got = np.asarray(module.per_block(jnp.asarray(x), interpret=True))
    np.testing.assert_allclose(got, x / 128.0, rtol=1e-6)


@pytest.mark.parametrize("n", [50, 100])
def test_block_size_as_number_refused_when_not_legal(helionc, tmp_path, n):
    """64 lanes are no TPU block for a longer axis, and the whole axis would change the number:
    refused while JAX traces, not computed with another block."""
    module = compile_source(helionc, tmp_path, BLOCK_AS_NUMBER.replace("BLOCK", "64"),
                            "per_block")
    with pytest.raises(ValueError, match=(
            r"per_block.py:11: the kernel computes with `tile.block_size` of this loop, and the "
            r"source fixes its block size, so its blocks must be 64 elements")):
        module.per_block(jnp.zeros((n,), jnp.float32), interpret=True)
