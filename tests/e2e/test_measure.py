"""`helionc --autotune --search measure` on the CPU (docs/guide/tuning.md, "Measured search").

The runner times the interpreter here, which tests the plumbing: the statuses of candidates
that hang, compute a wrong result, fail to compile or crash (injected through the runner's
test-only hook, HELIONC_MEASURE_TEST_ONLY_FAULTS), the journal and `--resume`, the measured
times in the YAML, and the exit status when no candidate of a call runs.
"""

from __future__ import annotations

import json
import re
import os
import pathlib
import subprocess
import sys

import jax.numpy as jnp
import numpy as np

from conftest import PROJECT_ROOT, import_module

CALL = "x=8x1000:f32"
# Each candidate is a process that starts JAX (about 6 s on the 2-core machine), and a hang
# costs the candidate timeout: more than the fixture's limit for one compile.
RUN_TIMEOUT_S = 300


def measure(helionc, tmp_path, *extra, faults=None, top=3):
    env = dict(os.environ, HELIONC_PYTHON=sys.executable)
    env.pop("HELIONC_MEASURE_TEST_ONLY_FAULTS", None)
    if faults:
        env["HELIONC_MEASURE_TEST_ONLY_FAULTS"] = json.dumps(faults)
    yaml_path = tmp_path / "long_sum.yaml"
    proc = subprocess.run([str(helionc.binary), "samples/long_sum.py", "--autotune", "--search",
                           "measure", "--top", str(top), "--runs", "3", "--candidate-timeout", "25",
                           "--shapes", CALL, "--config-out", str(yaml_path), *extra],
                          cwd=PROJECT_ROOT, env=env, capture_output=True, text=True,
                          timeout=RUN_TIMEOUT_S)
    return proc, yaml_path, pathlib.Path(str(yaml_path) + ".journal")


def journal_records(path: pathlib.Path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_statuses_of_hanging_wrong_broken_and_crashing_candidates(helionc, tmp_path):
    faults = {"0/1": "hang", "0/2": "wrong", "0/3": "compile_error", "0/4": "crash"}
    proc, yaml_path, journal = measure(helionc, tmp_path, faults=faults, top=5)
    assert proc.returncode == 0, proc.stderr
    assert "no TPU here: timing JAX's interpreter" in proc.stderr
    records = journal_records(journal)
    assert [r["status"] for r in records] == ["ok", "timeout", "accuracy_fail", "compile_error",
                                              "runtime_error"]
    assert all(r["call"] == CALL and r["device"] == "cpu (interpret mode)" for r in records)
    assert len(records[0]["runs_us"]) == 3 and records[0]["time_us"] > 0
    assert records[1]["time_us"] is None and "over 25" in records[1]["detail"]
    assert "differs from the default config's" in records[2]["detail"]
    # The only candidate that ran correctly wins, with both times in the YAML.
    text = yaml_path.read_text()
    assert f"config: {records[0]['config']}" in text
    assert re.search(r"measured: \{time_us: [0-9.e+-]+, device: \"cpu \(interpret mode\)\", "
                     r"candidates: 5, ok: 1\}", text), text
    assert "predicted: {time_us: " in text


def test_resume_keeps_the_journal(helionc, tmp_path):
    proc, yaml_path, journal = measure(helionc, tmp_path)
    assert proc.returncode == 0, proc.stderr
    first = journal_records(journal)
    assert [r["status"] for r in first] == ["ok", "ok", "ok"]
    # Each candidate's module has its own config (they are distinct files).
    assert len({r["module_sha256"] for r in first}) == len({r["config"] for r in first}) == 3
    # Interrupted after the first candidate (and half-way through writing the second line).
    lines = journal.read_text().splitlines()
    journal.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    # Candidate 0 would now compute a wrong result: resumed, it is not run again.
    proc, yaml_path, journal = measure(helionc, tmp_path, "--resume", faults={"0/0": "wrong"})
    assert proc.returncode == 0, proc.stderr
    assert f"{CALL} candidate 0: ok (journal)" in proc.stderr
    again = [r for r in journal_records_lenient(journal)]
    assert [r["status"] for r in again] == ["ok", "ok", "ok"]
    assert again[0] == first[0]
    # Without --resume the journal starts over.
    proc, _, journal = measure(helionc, tmp_path, faults={"0/0": "wrong"})
    assert proc.returncode == 0, proc.stderr
    assert [r["status"] for r in journal_records(journal)] == ["accuracy_fail", "ok", "ok"]


def journal_records_lenient(path: pathlib.Path):
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            pass  # the line the interruption cut short
    return records


def test_no_candidate_runs(helionc, tmp_path):
    proc, yaml_path, _ = measure(helionc, tmp_path, faults={"0/0": "wrong", "0/1": "crash"}, top=2)
    assert proc.returncode == 5
    assert f"no candidate of `{CALL}` ran correctly (1 accuracy_fail, 1 runtime_error)" in proc.stderr
    assert not yaml_path.exists()


def test_measured_module_runs(helionc, tmp_path):
    module_path = tmp_path / "long_sum_pallas.py"
    proc, yaml_path, _ = measure(helionc, tmp_path, "-o", str(module_path), top=2)
    assert proc.returncode == 0, proc.stderr
    module = import_module(module_path, "helionc_e2e.measure.long_sum")
    x = np.random.default_rng(0).standard_normal((8, 1000)).astype(np.float32)
    got = np.asarray(module.long_sum(jnp.asarray(x), interpret=True), np.float64)
    np.testing.assert_allclose(got, x.astype(np.float64).sum(-1), rtol=1e-5, atol=1e-3)


def test_measure_options_need_search_measure(helionc):
    proc = helionc.run(["samples/long_sum.py", "--autotune", "--shapes", CALL, "--top", "3"])
    assert proc.returncode == 2
    assert "--top is only used with --search measure" in proc.stderr


def test_a_kernel_taking_a_callable_is_not_timed(helionc, tmp_path):
    """The runner calls the module with the --shapes arrays only."""
    proc = helionc.run(["samples/callable_mm.py", "--autotune", "--search", "measure", "--shapes",
                        "x=8x128:f32,y=128x128:f32", "--config-out", str(tmp_path / "c.yaml")])
    assert proc.returncode == 2
    assert "kernel `callable_mm` takes the callable `mm_func`, which the runner cannot give a call" in proc.stderr
