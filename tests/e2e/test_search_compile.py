"""`helionc --autotune --search compile` (issue 28; src/driver/compile_command.h).

The runner compiles the model's best candidates for the target's TPU topology with the real
compiler (libtpu, from the venv's jax[tpu]; no TPU needed). The runner's test-only hook
(HELIONC_COMPILE_TEST_ONLY_FAULTS) makes chosen candidates abort their process, hang, or compile
another module: here a hand-written Pallas kernel whose VMEM scratch the compiler refuses, so
the refusal comes from libtpu through the same path as any candidate's.
"""

from __future__ import annotations

import importlib.metadata
import json
import os
import pathlib
import subprocess
import sys

import jax
import jax.numpy as jnp

from conftest import PROJECT_ROOT, import_module
from e2e_support import TPU_TOPOLOGIES, compile_for_tpu
from test_measure import journal_records_lenient as journal_records

CALLS = "x=8x1000:f32;x=64x2048:bf16"
# A run starts one JAX and libtpu per worker (2-4 s here) and compiles each candidate in
# 0.2-2 s; a hang costs the candidate timeout.
RUN_TIMEOUT_S = 300

# 128 MiB of VMEM scratch: more than any TPU generation has, whatever helionc's printer does.
REFUSED_MODULE = '''
import jax
import jax.numpy as jnp
from jax.experimental import pallas as pl
from jax.experimental.pallas import tpu as pltpu


def long_sum(x, interpret=None):
    def body(x_ref, o_ref, scratch):
        scratch[...] = jnp.ones(scratch.shape, scratch.dtype)
        o_ref[...] = x_ref[...] + scratch[0:8, 0:128].sum()

    return pl.pallas_call(body, out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
                          scratch_shapes=[pltpu.VMEM((32768, 1024), jnp.float32)],
                          interpret=bool(interpret))(x)
'''


def search_compile(helionc, tmp_path, *extra, faults=None, top=2, calls=CALLS, python=None,
                   target="tpu-v7x"):
    env = dict(os.environ, HELIONC_PYTHON=python or sys.executable)
    env.pop("HELIONC_COMPILE_TEST_ONLY_FAULTS", None)
    if faults:
        env["HELIONC_COMPILE_TEST_ONLY_FAULTS"] = json.dumps(faults)
    yaml_path = tmp_path / "long_sum.yaml"
    proc = subprocess.run(
        [str(helionc.binary), "samples/long_sum.py", "--autotune", "--search", "compile",
         "--target", target, "--top", str(top), "--shapes", calls, "--config-out", str(yaml_path),
         *extra],
        cwd=PROJECT_ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
    return proc, yaml_path, pathlib.Path(str(yaml_path) + ".journal")


def entries(yaml_text: str) -> list[str]:
    """The text of each `configs:` entry (comments included)."""
    body = yaml_text.split("configs:\n", 1)[1]
    return ["  - shapes:" + part for part in body.split("  - shapes:")[1:]]


def test_every_entry_records_the_compiler_that_verified_it(helionc, tmp_path):
    proc, yaml_path, journal = search_compile(helionc, tmp_path, "-o", str(tmp_path / "m.py"))
    assert proc.returncode == 0, proc.stderr
    records = journal_records(journal)
    assert [(r["call"], r["status"]) for r in records] == [
        ("x=8x1000:f32", "ok"), ("x=8x1000:f32", "ok"),
        ("x=64x2048:bf16", "ok"), ("x=64x2048:bf16", "ok")]
    # Each candidate's module has its own config (they are distinct files).
    assert len({r["module_sha256"] for r in records}) == len({r["config"] for r in records}) == 4
    libtpu = importlib.metadata.version("libtpu")
    verified = (f'verified: {{topology: "{TPU_TOPOLOGIES["tpu-v7x"]}", libtpu: "{libtpu}", '
                f'jax: "{jax.__version__}", candidates: 2, compiled: 2}}')
    text = yaml_path.read_text()
    assert [verified in entry for entry in entries(text)] == [True, True], text
    # The model's first choice compiled, so it is each call's entry.
    for entry, record in zip(entries(text), records[::2]):
        assert f"config: {record['config']}" in entry
    assert "--search compile --top 2" in text
    assert "compile: x=8x1000:f32 for tpu7x:2x2x1 (libtpu " in proc.stderr
    # The module written with it compiles for the same topology.
    module = import_module(tmp_path / "m.py", "helionc_e2e.search_compile.long_sum")
    compile_for_tpu(lambda x: module.long_sum(x, interpret=False),
                    jax.ShapeDtypeStruct((64, 2048), jnp.bfloat16))


def test_a_candidate_the_compiler_refuses_is_dropped_with_its_message(helionc, tmp_path):
    refused = tmp_path / "refused_long_sum.py"
    refused.write_text(REFUSED_MODULE)
    proc, yaml_path, journal = search_compile(
        helionc, tmp_path, calls="x=8x1000:f32", faults={"0/0": f"module={refused}"}, top=3)
    assert proc.returncode == 0, proc.stderr
    records = journal_records(journal)
    assert [r["status"] for r in records] == ["refused", "ok", "ok"]
    message = records[0]["message"]
    assert "RESOURCE_EXHAUSTED" in message and "vmem" in message, message
    [entry] = entries(yaml_path.read_text())
    # The next candidate in the model's order wins; the refused one is a comment with the
    # compiler's message, and the summary shows it too.
    assert f"config: {records[1]['config']}" in entry
    assert "candidates: 3, compiled: 2}" in entry
    assert f"\n# refused: {records[0]['config']}: JaxRuntimeError: RESOURCE_EXHAUSTED" in entry
    assert "candidate 0 refused: JaxRuntimeError: RESOURCE_EXHAUSTED" in proc.stderr
    # No default is a config refused for some call.
    assert f"default: {records[0]['config']}" not in yaml_path.read_text()


def test_a_crashing_or_hanging_compile_costs_one_candidate(helionc, tmp_path):
    proc, yaml_path, journal = search_compile(
        helionc, tmp_path, "--candidate-timeout", "20", calls="x=8x1000:f32",
        faults={"0/0": "abort", "0/1": "hang"}, top=3)
    assert proc.returncode == 0, proc.stderr
    records = journal_records(journal)
    assert [r["status"] for r in records] == ["compiler_crash", "timeout", "ok"]
    assert "killed by SIGABRT" in records[0]["message"]
    assert "no result after 20 s" in records[1]["message"]
    [entry] = entries(yaml_path.read_text())
    assert f"config: {records[2]['config']}" in entry
    assert f"# compiler_crash: {records[0]['config']}: the compiling process was killed" in entry
    assert f"# timeout: {records[1]['config']}: no result after 20 s" in entry


def test_resume_keeps_the_journal(helionc, tmp_path):
    proc, _, journal = search_compile(helionc, tmp_path)
    assert proc.returncode == 0, proc.stderr
    first = journal_records(journal)
    # Interrupted after the first candidate, half-way through writing the second line.
    lines = journal.read_text().splitlines()
    journal.write_text(lines[0] + "\n" + lines[1][: len(lines[1]) // 2])
    # Candidate 0 of call 0 would now crash: resumed, it is not compiled again.
    proc, yaml_path, journal = search_compile(helionc, tmp_path, "--resume",
                                              faults={"0/0": "abort"})
    assert proc.returncode == 0, proc.stderr
    assert "x=8x1000:f32 candidate 0: ok (journal)" in proc.stderr
    again = journal_records(journal)
    assert [r["status"] for r in again] == ["ok"] * 4
    assert again[0] == first[0]
    # Without --resume the journal starts over.
    proc, _, journal = search_compile(helionc, tmp_path, faults={"0/0": "abort"})
    assert proc.returncode == 0, proc.stderr
    assert [r["status"] for r in journal_records(journal)] == ["compiler_crash", "ok", "ok", "ok"]


def test_no_candidate_compiles(helionc, tmp_path):
    refused = tmp_path / "refused_long_sum.py"
    refused.write_text(REFUSED_MODULE)
    proc, yaml_path, _ = search_compile(
        helionc, tmp_path, calls="x=8x1000:f32",
        faults={"0/0": f"module={refused}", "0/1": "abort"}, top=2)
    assert proc.returncode == 5
    assert ("none of the 2 candidates of `x=8x1000:f32` compiled for tpu7x:2x2x1 "
            "(1 compiler_crash, 1 refused)") in proc.stderr
    assert not yaml_path.exists()


def test_without_libtpu_it_says_what_to_install(helionc, tmp_path):
    # The system Python in isolated mode: no venv, no site packages, so no jax.
    python = tmp_path / "python"
    python.write_text('#!/bin/sh\nexec /usr/bin/python3 -I "$@"\n')
    python.chmod(0o755)
    proc, yaml_path, _ = search_compile(helionc, tmp_path, python=str(python))
    assert proc.returncode == 5, proc.stderr
    assert "--search compile needs JAX's TPU compiler" in proc.stderr
    assert "cannot import `jax`" in proc.stderr
    assert 'pip install "jax[tpu]"' in proc.stderr
    assert "Traceback" not in proc.stderr
    assert not yaml_path.exists()


def test_pack_parameters_get_their_lists_and_dicts(helionc, tmp_path):
    """`pair.0`, `gates.scale`: the runner passes the list and the dict the kernel takes."""
    yaml_path = tmp_path / "pack_blend.yaml"
    proc = subprocess.run(
        [str(helionc.binary), "samples/pack_blend.py", "--autotune", "--search", "compile",
         "--top", "1", "--shapes", "pair.0=40x130:f32,pair.1=40x130:f32,gates.scale=130:f32,"
         "gates.bias=130:f32", "--config-out", str(yaml_path)],
        cwd=PROJECT_ROOT, env=dict(os.environ, HELIONC_PYTHON=sys.executable), capture_output=True,
        text=True, timeout=RUN_TIMEOUT_S)
    assert proc.returncode == 0, proc.stderr
    assert "candidates: 1, compiled: 1}" in yaml_path.read_text()


def test_the_options(helionc, tmp_path):
    proc = helionc.run(["samples/long_sum.py", "--autotune", "--search", "compile", "--runs", "3",
                        "--shapes", "x=8x1000:f32", "--config-out", str(tmp_path / "l.yaml")])
    assert proc.returncode == 2
    assert "--runs is only used with --search measure" in proc.stderr
    proc = helionc.run(["samples/long_sum.py", "--autotune", "--search", "compile",
                        "--shapes", "x=8x1000:f32"])
    assert proc.returncode == 2
    assert "--search compile keeps a journal: give --config-out FILE or --journal" in proc.stderr
