"""The Python wheel (pyproject.toml): `pip install .` into a fresh venv puts a helionc on its
PATH that needs nothing but glibc, with the man page and the build rules under its prefix.

It compiles helionc once more from scratch (five minutes on two cores, a sixth of CI's budget),
so it runs in the whole-matrix tier (HELIONC_E2E_FULL=1, before a release) or with
HELIONC_TEST_WHEEL=1, and is skipped otherwise, saying so. The install layout and the installed
rules are tested on every run by test_cmake.py and test_make.py. pip fetches
scikit-build-core from PyPI; the grammar comes from the build under test, not the network.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

from conftest import REPO

pytestmark = pytest.mark.skipif(
    os.environ.get("HELIONC_E2E_FULL") != "1" and os.environ.get("HELIONC_TEST_WHEEL") != "1",
    reason="builds helionc again (minutes): runs with HELIONC_E2E_FULL=1 or HELIONC_TEST_WHEEL=1")


@pytest.fixture(scope="module")
def venv(tmp_path_factory) -> pathlib.Path:
    root = tmp_path_factory.mktemp("wheel")
    venv = root / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    build = pathlib.Path(os.environ.get("HELIONC_BUILD_DIR", REPO / "build"))
    tarball = next((build / "grammar").glob("tree-sitter-python-*.tgz"))
    environment = {**os.environ, "PIP_CACHE_DIR": str(root / "pip-cache"),
                   "PIP_DISABLE_PIP_VERSION_CHECK": "1", "TMPDIR": str(root)}
    # Built unoptimized (no build type: -O0, no debug info), which compiles in about half the time
    # of the wheel's Release build: this test checks the packaging (the install layout, the
    # static link, the built-in templates), and the rest of the suite checks the compiler's code.
    result = subprocess.run(
        [str(venv / "bin/python"), "-m", "pip", "install", "-q", "-Ccmake.build-type=None",
         f"-Ccmake.define.HELIONC_GRAMMAR_TARBALL={tarball}", str(REPO)],
        capture_output=True, text=True, timeout=3000, env=environment)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return venv


def test_helionc_is_on_the_venv_path_and_compiles(venv, tmp_path):
    environment = {**os.environ, "PATH": f"{venv / 'bin'}:/usr/bin:/bin"}
    version = subprocess.run(["helionc", "--version"], capture_output=True, text=True,
                             env=environment, timeout=60)
    assert version.returncode == 0, version.stderr
    assert version.stdout.startswith("helionc 0.")
    result = subprocess.run(["helionc", str(REPO / "samples/softmax.py"), "-o",
                             str(tmp_path / "softmax_pallas.py")],
                            capture_output=True, text=True, env=environment, timeout=60)
    assert result.returncode == 0, result.stderr
    # Templates built in: the module is the one the build under test writes.
    reference = subprocess.run([os.environ.get("HELIONC", str(REPO / "build/src/driver/helionc")),
                                str(REPO / "samples/softmax.py"), "-o", "-"],
                               capture_output=True, text=True, timeout=60)
    assert (tmp_path / "softmax_pallas.py").read_text() == reference.stdout


def test_the_binary_needs_only_glibc(venv):
    linked = subprocess.run(["ldd", str(venv / "bin/helionc")], capture_output=True, text=True,
                            timeout=60)
    libraries = {line.split()[0] for line in linked.stdout.splitlines() if line.strip()}
    glibc = {"linux-vdso.so.1", "libc.so.6", "libm.so.6", "/lib64/ld-linux-x86-64.so.2"}
    assert libraries <= glibc, linked.stdout


def test_the_man_page_and_rules_are_under_the_prefix(venv):
    for path in ("share/man/man1/helionc.1", "share/helionc/helionc.mk",
                 "lib/cmake/helionc/helioncConfig.cmake"):
        assert (venv / path).is_file(), path
