"""Generated modules where JAX code runs: jax.vmap over a batch axis the kernel does not know,
jax.jit with donated arguments, and jax.shard_map with its default checks (check_vma=True),
run on four host devices in interpret mode and compiled for real for a four-chip TPU topology.
Also the choice of `interpret=None` on a CPU host: the interpreter when the call runs there, the
kernels when jax.jit lowers the same call for a TPU (no context needed)."""

from __future__ import annotations

import functools
import pathlib
import subprocess
import sys

import jax
import jax.numpy as jnp
import numpy as np
import pytest
from sharded_cases import CASES, MESH_AXIS, MESH_DEVICES

from e2e_support import TPU_TOPOLOGIES, tpu_device

HERE = pathlib.Path(__file__).resolve().parent


def _close(actual, expected, tolerance=2e-5):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected), rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("sample", ["softmax", "layer_norm", "matmul", "add_inplace", "attention"])
def test_vmap_over_a_batch_axis_equals_one_call_per_element(helionc, sample):
    case = CASES[sample]
    module = helionc.module(case.sample, case.kernel, None)
    kernel = functools.partial(getattr(module, case.kernel), interpret=True)
    batches = [case.arrays(seed) for seed in range(2)]
    stacked = [np.stack(arrays) for arrays in zip(*batches)]
    batched = jax.vmap(kernel)(*stacked)
    for i, arrays in enumerate(batches):
        _close(batched[i], kernel(*arrays))


def test_jit_with_a_donated_argument(helionc):
    module = helionc.module("add_inplace", "add_inplace", None)
    x, y = CASES["add_inplace"].arrays()
    donated = jax.jit(functools.partial(module.add_inplace, interpret=True), donate_argnums=0)
    _close(donated(jnp.asarray(x), jnp.asarray(y)), x + y)


@pytest.mark.parametrize("sample", sorted(CASES))
def test_shard_map_on_four_host_devices(helionc, sample):
    """In a process of its own (sharded_run.py), where the host has four CPU devices."""
    case = CASES[sample]
    module = helionc.module(case.sample, case.kernel, None)
    run = subprocess.run(
        [sys.executable, str(HERE / "sharded_run.py"), module.__file__, sample],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert float(run.stdout.split()[-1]) < 2e-5, run.stdout


@pytest.mark.tpu
@pytest.mark.parametrize("sample", sorted(CASES))
def test_shard_map_compiles_for_a_four_chip_tpu(helionc, sample):
    """The sharded program with the module's default `interpret=None`, jitted for v5e:2x2 from
    this CPU host: each shard is the Mosaic kernel (tpu_custom_call), compiled by libtpu."""
    case = CASES[sample]
    module = helionc.module(case.sample, case.kernel, None)
    from jax.experimental import topologies

    devices = topologies.get_topology_desc(platform="tpu", topology_name=TPU_TOPOLOGIES["tpu-v5e"]).devices
    assert len(devices) == MESH_DEVICES
    mesh = jax.sharding.Mesh(np.array(devices), (MESH_AXIS,))
    placed = [
        jax.ShapeDtypeStruct(s.shape, s.dtype, sharding=jax.NamedSharding(mesh, spec))
        for s, spec in zip(case.structs(), case.in_specs)
    ]
    lowered = jax.jit(case.sharded(module, mesh, interpret=None)).lower(*placed)
    assert "tpu_custom_call" in lowered.as_text()
    lowered.compile()


@pytest.mark.tpu
def test_default_interpret_lowers_the_kernel_for_a_tpu_without_a_context(helionc):
    """jax.jit(f).lower(...) on arrays placed on a TPU topology's device, from a CPU host and
    outside tpu_lowering_context(): the kernel, not the interpreter, and it compiles."""
    module = helionc.module("softmax", "softmax", None)
    sharding = jax.sharding.SingleDeviceSharding(tpu_device("tpu-v7x"))
    x = jax.ShapeDtypeStruct((64, 256), jnp.float32, sharding=sharding)
    lowered = jax.jit(module.softmax).lower(x)
    assert "tpu_custom_call" in lowered.as_text()
    lowered.compile()
    # The same function called on this host interprets.
    x = CASES["softmax"].arrays()[0]
    _close(module.softmax(x), jax.nn.softmax(x, axis=1))
