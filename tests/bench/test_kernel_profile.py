"""Smoke test of the kernel profile: `kernel_profile.py --samples matmul --json` runs, profiles
the sample under every strategy at both shapes, and counts JAX's matmul exactly.

The compiler is $HELIONC (ctest sets it), else build/src/driver/helionc; skipped when neither
exists unless HELIONC names a missing file. Everything it writes goes to a temporary folder.
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def helionc() -> str:
    explicit = os.environ.get("HELIONC")
    path = pathlib.Path(explicit or ROOT / "build/src/driver/helionc")
    if not path.is_file():
        if explicit:
            pytest.fail(f"HELIONC={explicit} does not exist", pytrace=False)
        pytest.skip(f"no helionc at {path}; build it or set HELIONC")
    return str(path)


@pytest.fixture(scope="module")
def profile() -> dict:
    proc = subprocess.run([sys.executable, str(HERE / "kernel_profile.py"), "--helionc", helionc(),
                           "--samples", "matmul", "--json"],
                          cwd=ROOT, capture_output=True, text=True, timeout=600,
                          env={**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONDONTWRITEBYTECODE": "1"})
    assert proc.returncode == 0, proc.stderr + proc.stdout[-2000:]
    return json.loads(proc.stdout)


def test_every_strategy_at_both_shapes(profile):
    rows = [r for r in profile["rows"] if r["sample"] == "matmul"]
    assert not profile["errors"]
    assert {(r["loops"], r["shape"]) for r in rows} == {
        (s, shape) for s in ("unroll", "grid", "emit_pipeline", "fori_loop") for shape in ("divides", "partial")
    }
    for row in rows:
        assert row["launch"]["per_step"]["mxu_flops"] > 0, row
        assert row["vpu_ratio"] is not None


def test_jax_matmul_is_counted_exactly(profile):
    (jax_row,) = [r for r in profile["rows"] if r["shape"] == "hand-written"]
    step = jax_row["launch"]["per_step"]
    # 512x1024 @ 1024x1024 per step; the f32 accumulator add and the bf16 cast of 512x1024
    assert step["mxu_flops"] == 2 * 512 * 1024 * 1024
    assert step["vpu"] == 2 * 512 * 1024
    assert step.get("eup", 0) == 0
    assert jax_row["launch"]["grid"] == [8, 4, 4]


def test_goals_are_lines_not_failures(profile):
    assert len(profile["goals"]) == 8
    assert all(g["text"].startswith("matmul ") for g in profile["goals"])
