"""Runs one ShardedCase (sharded_cases.py) in interpret mode on host CPU devices and prints the
largest difference from the module's reference on the whole arrays.

    python sharded_run.py MODULE_PATH SAMPLE

A process of its own because the host device count (XLA_FLAGS) is read once, when jax starts;
test_jax_transforms.py runs it.
"""

from __future__ import annotations

import importlib.util
import os
import pathlib
import sys

os.environ["JAX_PLATFORMS"] = "cpu"
os.environ["XLA_FLAGS"] = f"{os.environ.get('XLA_FLAGS', '')} --xla_force_host_platform_device_count=4"

import jax  # noqa: E402
import numpy as np  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
from sharded_cases import CASES, MESH_AXIS, MESH_DEVICES  # noqa: E402


def main(module_path: str, sample: str) -> None:
    spec = importlib.util.spec_from_file_location("sharded_module", module_path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    case = CASES[sample]
    mesh = jax.make_mesh((MESH_DEVICES,), (MESH_AXIS,), axis_types=(jax.sharding.AxisType.Explicit,))
    arrays = case.arrays()
    placed = [jax.device_put(a, jax.NamedSharding(mesh, s)) for a, s in zip(arrays, case.in_specs)]
    result = jax.jit(case.sharded(module, mesh, interpret=True, check_vma=case.interpret_check_vma))(*placed)
    expected = case.reference(module, [jax.numpy.asarray(a) for a in arrays])
    print(float(np.max(np.abs(np.asarray(result, np.float64) - np.asarray(expected, np.float64)))))


if __name__ == "__main__":
    main(*sys.argv[1:])
