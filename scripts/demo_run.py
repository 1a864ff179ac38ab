"""Runs one generated kernel, samples/add.py's `add`, and checks it against numpy.

Usage: .venv/bin/python scripts/demo_run.py build/samples/add_pallas.py

The inputs broadcast (a row vector against a matrix) and 1000 rows are not a multiple of any
block size, so partial edge tiles are exercised too. Runs in Pallas interpret mode, so it works
on any machine. Exits 1 when the result does not match.
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys

import jax
import jax.numpy as jnp
import numpy as np


def load_module(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"demo: cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    module = load_module(pathlib.Path(sys.argv[1]))
    rng = np.random.default_rng(0)
    x = rng.standard_normal((1000, 300), dtype=np.float32)
    y = rng.standard_normal((300,), dtype=np.float32)

    result = np.asarray(jax.block_until_ready(module.add(jnp.asarray(x), jnp.asarray(y),
                                                         interpret=True)))
    expected = x + y
    if result.shape != expected.shape or result.dtype != expected.dtype:
        print(f"demo: add returned {result.dtype}{list(result.shape)}, "
              f"expected {expected.dtype}{list(expected.shape)}")
        return 1
    max_error = float(np.max(np.abs(result - expected)))
    ok = max_error <= 1e-6
    print(f"add(x: f32[1000, 300], y: f32[300]) in Pallas interpret mode "
          f"(jax {jax.__version__}, {jax.default_backend()}): "
          f"max |error| vs numpy = {max_error:.3g} -> {'OK' if ok else 'MISMATCH'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
