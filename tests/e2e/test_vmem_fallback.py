"""The module's trace-time VMEM fallback (docs/guide/tuning.md, "Trace-time VMEM fallback").

A config whose `unroll` loop keeps an axis resident that does not fit in VMEM (the config's
`vmem_limit_bytes`, else the target's VMEM per core) runs that loop as `emit_pipeline` instead,
and a launch that holds whole rows no strategy fits takes smaller blocks, decided while JAX
traces from the same VMEM figures as `--emit report`. Checked here: numerics
against numpy in interpret mode on both sides of the limit (dividing and non-dividing shapes),
the blocks of the pallas_call that is traced (VMEM block vs. `pl.ANY` streamed from HBM), TPU
lowering of a call that only fits after the fallback, the error when nothing fits, and that the
module's VMEM figures are the report's.
"""

from __future__ import annotations

import inspect
import re

import jax
import jax.numpy as jnp
import numpy as np
import pytest

from conftest import import_module
from test_kept_blocks import halvable_blocks
from e2e_support import pallas_calls, tpu_tracing
from expectations import attention64

LIMIT = 64 * 1024  # vmem_limit_bytes of the small-VMEM configs


def compile_module(helionc, tmp_path, sample, kernel, default, target="tpu-v7x", name="m"):
    config = tmp_path / f"{name}.yaml"
    config.write_text(f"schema_version: 1\nkernel: {kernel}\ndefault:\n{default}")
    out = tmp_path / f"{name}_pallas.py"
    proc = helionc.run([f"samples/{sample}.py", "--config", str(config), "--target", target,
                        "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    return import_module(out, f"helionc_e2e.vmem_fallback.{name}"), config


def traced_blocks(fn, *args):
    """Per pallas_call traced for `args`: each operand's (memory space, block shape)."""
    with tpu_tracing():
        jaxpr = jax.make_jaxpr(fn)(*args)
    calls = []
    for eqn in pallas_calls(jaxpr):
        operands = []
        for mapping in eqn.params["grid_mapping"].block_mappings:
            aval = str(mapping.block_aval)  # "Ref<any>{float32[8,4096]}"
            space = re.match(r"Ref<(\w+)>", aval).group(1)
            operands.append((space, tuple(mapping.block_aval.shape)))
        calls.append(operands)
    return calls


LONG_SUM_DEFAULT = f"  block_sizes: [8, 512]\n  pallas_loop_type: [unroll]\n  vmem_limit_bytes: {LIMIT}\n"


@pytest.mark.parametrize("m,n,falls_back", [
    (8, 512, False),   # 8x512 f32 x 2 buffers = 32 KiB: unroll fits
    (8, 4096, True),   # the resident row: 8x4096 f32 x 2 = 256 KiB > 64 KiB
    (13, 3000, True),  # non-dividing: 13x3072 (whole blocks) x 2 = 312 KiB
    (5, 1000, False),  # 5x1024 x 2 = 40 KiB
])
def test_long_sum_unroll_falls_back_to_emit_pipeline(helionc, tmp_path, m, n, falls_back):
    module, _ = compile_module(helionc, tmp_path, "long_sum", "long_sum", LONG_SUM_DEFAULT)
    x = np.random.default_rng(m * n).standard_normal((m, n)).astype(np.float32)
    got = np.asarray(module.long_sum(jnp.asarray(x), interpret=True), np.float64)
    np.testing.assert_allclose(got, x.astype(np.float64).sum(-1), rtol=1e-5, atol=1e-3)
    (operands,) = traced_blocks(lambda a: module.long_sum(a, interpret=True),
                                jax.ShapeDtypeStruct((m, n), jnp.float32))
    x_space, x_block = operands[0]
    if falls_back:
        assert x_space == "any", operands  # left in HBM, streamed by the emit_pipeline kernel
    else:
        assert x_space != "any", operands
        assert x_block == (m, -(-n // 512) * 512), operands  # the resident row, whole blocks


def test_attention_long_sequence_falls_back(helionc, tmp_path):
    """Tuned with `unroll` for short sequences, the kernel meets a longer one."""
    default = f"  block_sizes: [1, 64, 128]\n  pallas_loop_type: [unroll]\n  vmem_limit_bytes: {1 << 20}\n"
    module, _ = compile_module(helionc, tmp_path, "attention", "attention_output", default)
    rng = np.random.default_rng(7)
    for n, falls_back in ((256, False), (3000, True)):
        q = rng.standard_normal((1, 1, 64, 64)).astype(np.float32)
        k = rng.standard_normal((1, 1, n, 64)).astype(np.float32)
        v = rng.standard_normal((1, 1, n, 64)).astype(np.float32)
        got = np.asarray(module.attention_output(jnp.asarray(q), jnp.asarray(k), jnp.asarray(v),
                                                 interpret=True), np.float64)
        want = attention64(q, k, v, causal=False)[0]
        np.testing.assert_allclose(got, want, rtol=2e-2, atol=2e-2)
        structs = [jax.ShapeDtypeStruct(a.shape, jnp.float32) for a in (q, k, v)]
        (operands,) = traced_blocks(lambda *a: module.attention_output(*a, interpret=True), *structs)
        spaces = [space for space, _ in operands]
        # q, k, v, out: k and v stream from HBM after the fallback, stay resident before it.
        assert (spaces[1] == "any" and spaces[2] == "any") == falls_back, operands


def test_target_vmem_fallback_lowers_for_tpu(helionc, tmp_path, tpu_lower):
    """Without vmem_limit_bytes the target's VMEM decides: 64 MiB per core on tpu-v7x."""
    default = "  block_sizes: [8, 1024]\n  pallas_loop_type: [unroll]\n"
    module, _ = compile_module(helionc, tmp_path, "long_sum", "long_sum", default)
    fn = lambda a: module.long_sum(a, interpret=False)  # noqa: E731
    small = jax.ShapeDtypeStruct((8, 4096), jnp.float32)
    # Two steps of 32 MiB row blocks, each double-buffered (a block that never changes, as at
    # 8 rows, takes one buffer and fits).
    large = jax.ShapeDtypeStruct((16, 1 << 20), jnp.float32)
    assert traced_blocks(fn, small)[0][0] == ("default", (8, 4096))  # a VMEM block
    assert traced_blocks(fn, large)[0][0][0] == "any"
    assert "tpu_custom_call" in tpu_lower(fn, large)


def test_no_strategy_fits(helionc, tmp_path):
    default = "  block_sizes: [8, 512]\n  pallas_loop_type: [unroll]\n  vmem_limit_bytes: 4096\n"
    module, _ = compile_module(helionc, tmp_path, "long_sum", "long_sum", default)
    # 8 rows are whole (no smaller legal block), and 128 columns is a lane's minimum.
    with pytest.raises(ValueError, match=r"long_sum \(samples/long_sum.py:23\): no strategy fits "
                                         r"in the 4096 bytes of VMEM \(unroll needs 17408 bytes; "
                                         r"emit_pipeline needs 34816 bytes; with blocks \(8, 128\) "
                                         r"it needs 10240 bytes\); the blocks are too large"):
        module.long_sum(jnp.zeros((8, 512), jnp.float32), interpret=True)


SOFTMAX_DEFAULT = f"  block_sizes: [256]\n  vmem_limit_bytes: {1 << 20}\n"


@pytest.mark.parametrize("m,n,rows", [
    (512, 128, 256),   # 256x128 f32, in and out, 2 buffers each: 512 KiB, and 192 KiB of the
                       # rows held at 32 bits across their reductions: fits
    (512, 4096, 8),    # 16 MiB and 6 MiB held at 256 rows: halved five times, to 704 KiB
    (100, 3000, 8),    # 100 rows whole, then 48, 24 and 8 (the sublane multiple): 375 KiB
    (13, 50, 13),      # small: the whole 13 rows fit
])
def test_whole_rows_halve_the_block(helionc, tmp_path, m, n, rows):
    """Rows held whole (`x[tile_m, :]`) that outgrow VMEM take fewer rows per step."""
    module, _ = compile_module(helionc, tmp_path, "softmax", "softmax", SOFTMAX_DEFAULT)
    x = np.random.default_rng(m + n).standard_normal((m, n)).astype(np.float32)
    got = np.asarray(module.softmax(jnp.asarray(x), interpret=True), np.float64)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(got, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-6)
    (operands,) = traced_blocks(lambda a: module.softmax(a, interpret=True),
                                jax.ShapeDtypeStruct((m, n), jnp.float32))
    assert operands == [("default", (rows, n)), ("default", (rows, n))], operands


def test_halved_block_lowers_for_tpu(helionc, tmp_path, tpu_lower):
    """Without vmem_limit_bytes: 256 rows of 65,536 f32 need 256 MiB (in and out, two buffers
    each) and 96 MiB held across the rows' reductions; 64 rows would need 88 MiB, 32 rows 44 MiB
    fit the 64 MiB."""
    module, _ = compile_module(helionc, tmp_path, "softmax", "softmax", "  block_sizes: [256]\n")
    fn = lambda a: module.softmax(a, interpret=False)  # noqa: E731
    large = jax.ShapeDtypeStruct((1024, 1 << 16), jnp.float32)
    assert traced_blocks(fn, large)[0][0] == ("default", (32, 1 << 16))
    assert "tpu_custom_call" in tpu_lower(fn, large)


NUMBERED_ROWS = """
import torch
import helion
import helion.language as hl


@helion.kernel()
def numbered_rows(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :] = x[tile_m, :] * tile_m.count
    return out
"""


def test_block_numbering_keeps_the_block(helionc, tmp_path):
    """A kernel that reads `tile.count` computes with its block: the module never halves it."""
    source = tmp_path / "numbered_rows.py"
    source.write_text(NUMBERED_ROWS)
    config = tmp_path / "numbered_rows.yaml"
    config.write_text(f"schema_version: 1\nkernel: numbered_rows\ndefault:\n{SOFTMAX_DEFAULT}")
    out = tmp_path / "numbered_rows_pallas.py"
    proc = helionc.run([str(source), "--config", str(config), "-o", str(out)])
    assert proc.returncode == 0, proc.stderr
    module = import_module(out, "helionc_e2e.vmem_fallback.numbered_rows")
    x = np.ones((512, 128), np.float32)
    np.testing.assert_array_equal(np.asarray(module.numbered_rows(jnp.asarray(x), interpret=True)),
                                  x * 2)  # two blocks of 256 rows
    assert halvable_blocks(module, "numbered_rows", jax.ShapeDtypeStruct((512, 128), jnp.float32)) == [()]


def report_vmem(helionc, sample, config, shapes):
    """`--emit report`'s VMEM bytes per call, in order (one launch per call here)."""
    proc = helionc.run([f"samples/{sample}.py", "--config", str(config), "--emit", "report",
                        "--shapes", shapes])
    assert proc.returncode == 0, proc.stderr
    return [int(v.replace(",", "")) for v in re.findall(r"^\s+VMEM ([\d,]+) B", proc.stdout, re.M)]


@pytest.mark.parametrize("sample,kernel,default,calls", [
    ("long_sum", "long_sum", "  block_sizes: [8, 512]\n", [
        [((8, 4096), "f32")], [((13, 1000), "bf16")], [((64, 3000), "f32")]]),
    ("attention", "attention_output", "  block_sizes: [1, 64, 128]\n", [
        [((1, 2, 100, 32), "f32"), ((1, 2, 300, 32), "f32"), ((1, 2, 300, 32), "f32")],
        [((2, 2, 128, 64), "bf16"), ((2, 2, 1000, 64), "bf16"), ((2, 2, 1000, 64), "bf16")]]),
    ("matmul", "matmul", "  block_sizes: [64, 128, 256]\n", [
        [((256, 1000), "f32"), ((1000, 384), "f32")], [((100, 512), "bf16"), ((512, 130), "bf16")]]),
])
@pytest.mark.parametrize("strategy", ["unroll", "emit_pipeline"])
def test_module_figures_are_the_reports(helionc, tmp_path, sample, kernel, default, calls, strategy):
    """The VMEM bytes `_fit_vmem` gets while JAX traces equal `--emit report`'s for the call."""
    module, config = compile_module(helionc, tmp_path, sample, kernel,
                                    default + "  pallas_loop_type: [unroll]\n", name=sample)
    seen = []
    real = module._fit_vmem

    def record(config, launch, first, blocks, needs, *rest):
        seen.append(needs(*blocks(config))[(strategy,)])
        return real(config, launch, first, blocks, needs, *rest)

    module._fit_vmem = record
    dtypes = {"f32": jnp.float32, "bf16": jnp.bfloat16}
    fn = getattr(module, kernel)
    for call in calls:
        jax.eval_shape(lambda *a: fn(*a, interpret=True),
                       *[jax.ShapeDtypeStruct(shape, dtypes[d]) for shape, d in call])
    config.write_text(config.read_text().replace("[unroll]", f"[{strategy}]"))
    names = list(inspect.signature(fn).parameters)  # the kernel's, through its decorator
    shapes = ";".join(",".join(f"{name}={'x'.join(map(str, shape))}:{d}"
                               for name, (shape, d) in zip(names, call)) for call in calls)
    assert seen == report_vmem(helionc, sample, config, shapes)
    assert len(seen) == len(calls)


def traced_vmem_limits(fn, *args):
    """Per pallas_call traced for `args`: the vmem_limit_bytes passed to Mosaic."""
    with tpu_tracing():
        jaxpr = jax.make_jaxpr(fn)(*args)
    return [eqn.params["compiler_params"].vmem_limit_bytes for eqn in pallas_calls(jaxpr)]


@pytest.mark.parametrize("m,n,limit", [
    # 256 rows of 4096 f32, in and out, 2 buffers each: 16 MiB, and 6 MiB of the rows held at
    # 32 bits across their reductions
    (512, 4096, None),
    (256, 8192, None),              # one step: one buffer each (the block never changes), 16 +
                                    # 12 MiB
    (512, 8192, 64 * 1024 * 1024),  # 32 + 12 MiB: more than Mosaic's default 32 MiB on v7x
])
def test_a_config_without_a_limit_gets_one_when_it_needs_more_than_the_default(
        helionc, tmp_path, tpu_lower, m, n, limit):
    """Mosaic refuses a kernel above its default scoped VMEM limit unless `vmem_limit_bytes`
    raises it; a launch the fallback lets through with more than that gets the target's VMEM."""
    module, _ = compile_module(helionc, tmp_path, "softmax", "softmax", "  block_sizes: [256]\n")
    fn = lambda a: module.softmax(a, interpret=False)  # noqa: E731
    x = jax.ShapeDtypeStruct((m, n), jnp.float32)
    assert traced_vmem_limits(fn, x) == [limit]
    assert traced_blocks(fn, x) == [[("default", (256, n)), ("default", (256, n))]]
    if limit:
        lowered = tpu_lower(fn, x)
        assert "tpu_custom_call" in lowered
        # Mosaic's custom call carries the limit as its scoped VMEM size.
        assert re.search(r"scoped_memory_configs.{0,80}size\\22: 67108864", lowered.text)
    small = np.random.default_rng(0).standard_normal((13, 300)).astype(np.float32)
    got = np.asarray(module.softmax(jnp.asarray(small), interpret=True))
    want = np.exp(small - small.max(1, keepdims=True))
    np.testing.assert_allclose(got, want / want.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
