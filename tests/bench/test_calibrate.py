"""The calibration benchmark (tests/bench/calibrate.py): the model reproduces the published
measurements within the tolerance, and the checker itself fails a cell out of tolerance and a
wrong order."""

import os
import pathlib
import subprocess
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import calibrate  # noqa: E402

SCRIPT = pathlib.Path(__file__).resolve().parent / "calibrate.py"


def run(*args) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True,
                          timeout=120, env=os.environ)


def test_published_measurements_are_reproduced():
    proc = run()
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "all 18 cells within 5 points, in the measured order" in proc.stdout


def test_a_cell_out_of_tolerance_fails():
    proc = run("--tolerance", "0.01")
    assert proc.returncode == 1
    assert "FAIL matmul bf16 (512, 1024, 1024) @ 4096^3" in proc.stderr


def test_a_wrong_order_is_found():
    published = {"a": 5.9, "b": 78.5, "c": 78.52}
    assert calibrate.order_problems(published, {"a": 6.0, "b": 80.0, "c": 1.0}) != []
    # Measurements closer than 0.1 point give no order to keep.
    assert calibrate.order_problems(published, {"a": 6.0, "b": 80.0, "c": 79.0}) == []


def test_call_times_reads_the_estimate():
    text = ('        - shapes: "x=8x8:bf16"\n          time_us: 12.500\n'
            '        - shapes: "x=16x16:bf16"\n          time_us: 30.000\n')
    assert calibrate.call_times(text) == {"x=8x8:bf16": 12.5, "x=16x16:bf16": 30.0}
