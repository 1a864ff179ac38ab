"""The README's five-minute tour runs as printed.

README.md marks each step of the tour with an HTML comment right before a fenced block:

    <!-- tour: file PATH -->   the block is a file the reader writes (PATH relative to the folder)
    <!-- tour: sh -->          the block is shell commands, run with bash
    <!-- tour: python -->      the block is Python, run with this interpreter (the project's venv)

The steps run in order in one empty temporary folder, as a reader would run them, with
`helionc` on PATH the way an install puts it there: PREFIX/bin/helionc (the built compiler,
$HELIONC, else build/src/driver/helionc) beside PREFIX/share/helionc/helionc.mk (rules/make/),
both in the temporary folder. A step that exits non-zero fails the test with its output.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

PROJECT_ROOT = pathlib.Path(__file__).resolve().parents[2]
README = PROJECT_ROOT / "README.md"

MARKER = re.compile(r"^<!-- tour: (file (?P<path>\S+)|(?P<kind>sh|python)) -->$")
FENCE = re.compile(r"^```(\w*)$")


def tour_steps(text: str) -> list[tuple[str, str | None, str]]:
    """(kind, path, body) of each marked block, in order; kind is "file", "sh" or "python"."""
    lines = text.splitlines()
    steps = []
    for number, line in enumerate(lines):
        match = MARKER.match(line.strip())
        if not match:
            if line.strip().startswith("<!-- tour"):
                raise AssertionError(f"README.md:{number + 1}: malformed tour marker: {line!r}")
            continue
        at = number + 1
        while at < len(lines) and not lines[at].strip():
            at += 1
        if at >= len(lines) or not FENCE.match(lines[at]):
            raise AssertionError(f"README.md:{number + 1}: a tour marker not followed by a fenced block")
        end = at + 1
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end >= len(lines):
            raise AssertionError(f"README.md:{at + 1}: the tour's fenced block is never closed")
        body = "\n".join(lines[at + 1 : end]) + "\n"
        kind = "file" if match.group("path") else match.group("kind")
        steps.append((kind, match.group("path"), body))
    return steps


def helionc_binary() -> pathlib.Path:
    explicit = os.environ.get("HELIONC")
    return pathlib.Path(explicit) if explicit else PROJECT_ROOT / "build" / "src" / "driver" / "helionc"


def test_the_tour_is_marked():
    kinds = [kind for kind, _, _ in tour_steps(README.read_text())]
    # A kernel and a Makefile to write, commands to run, and JAX code calling the module.
    assert kinds.count("file") >= 2, kinds
    assert kinds.count("sh") >= 2, kinds
    assert kinds.count("python") >= 1, kinds


def test_the_tour_runs_as_printed(tmp_path):
    helionc = helionc_binary()
    if not helionc.exists():
        pytest.skip(f"no compiler at {helionc} (set HELIONC or build it)")
    if shutil.which("make") is None:
        pytest.fail("the tour's build rule needs `make` (scripts/setup.sh installs it)")

    prefix = tmp_path / "prefix"
    (prefix / "bin").mkdir(parents=True)
    (prefix / "bin" / "helionc").symlink_to(helionc.resolve())
    (prefix / "share" / "helionc").mkdir(parents=True)
    shutil.copy(PROJECT_ROOT / "rules" / "make" / "helionc.mk", prefix / "share" / "helionc")

    work = tmp_path / "tour"
    work.mkdir()
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(prefix / "bin"), str(pathlib.Path(sys.executable).parent),
                                   env.get("PATH", "/usr/bin:/bin")])
    env.pop("HELIONC", None)  # the tour finds helionc on PATH, as a reader's shell does
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.setdefault("JAX_PLATFORMS", "cpu")  # no TPU here: skip probing for one

    for number, (kind, path, body) in enumerate(tour_steps(README.read_text()), start=1):
        if kind == "file":
            target = work / path
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(body)
            continue
        command = ["bash", "-euo", "pipefail", "-c", body] if kind == "sh" else [sys.executable, "-c", body]
        proc = subprocess.run(command, cwd=work, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, (
            f"tour step {number} ({kind}) exited {proc.returncode}:\n{body}\n"
            f"--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
        )

    # What the build rule wrote: the module beside the kernel, compiled with the tuned config.
    module = work / "kernels" / "rms_norm_pallas.py"
    assert module.exists()
    assert "kernels/rms_norm.yaml" in module.read_text()
