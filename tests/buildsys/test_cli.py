"""The command line as build logs and packagers see it: --version, and the man page against
--help."""

from __future__ import annotations

import re
import subprocess

from conftest import REPO


def helionc_output(helionc, *args):
    result = subprocess.run([str(helionc), *args], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_version_names_the_revision_grammar_and_runtime(helionc):
    lines = helionc_output(helionc, "--version").splitlines()
    assert len(lines) == 3
    match = re.fullmatch(r"helionc (\d+\.\d+\.\d+) \(git (\S+)\)", lines[0])
    assert match, lines[0]
    project = (REPO / "CMakeLists.txt").read_text()
    assert f"project(helionc VERSION {match.group(1)} " in project
    head = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=12", "HEAD"],
                          capture_output=True, text=True)
    if head.returncode == 0:  # a git checkout: the binary was built from it (scripts/test.sh builds)
        assert match.group(2).removesuffix("-dirty") == head.stdout.strip()
    assert lines[1] == "grammar: tree-sitter-python 0.23.6"
    assert re.fullmatch(r"runtime: tree-sitter library \S+, grammar ABI \d+ to \d+", lines[2])
