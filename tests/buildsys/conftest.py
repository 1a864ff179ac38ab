"""Fixtures of the build-integration tests: the compiler under test and sample projects.

A sample project is copied into a temporary directory (tests never write elsewhere): its build
files from projects/<kind>/, and kernels/ made of three samples (samples/add.py,
samples/softmax.py, samples/bias_gelu.py) with the configs of projects/kernels/. softmax and
bias_gelu have a config each; add has none, so touching a config must rebuild one module only.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import subprocess

import pytest

HERE = pathlib.Path(__file__).resolve().parent
REPO = HERE.parent.parent
PROJECTS = HERE / "projects"
SAMPLE_KERNELS = ("add", "softmax", "bias_gelu")


def helionc_path() -> pathlib.Path:
    """`$HELIONC` (ctest sets it), else the default build's binary."""
    path = pathlib.Path(os.environ.get("HELIONC", REPO / "build/src/driver/helionc"))
    if not path.is_file():
        pytest.fail(f"no helionc at {path} (build it, or set HELIONC)")
    return path.resolve()


@pytest.fixture(scope="session")
def helionc() -> pathlib.Path:
    return helionc_path()


def make_project(destination: pathlib.Path, kind: str) -> pathlib.Path:
    """Lays out the sample project `kind` at `destination` and returns it."""
    shutil.copytree(PROJECTS / kind, destination)
    kernels = destination / "kernels"
    kernels.mkdir(exist_ok=True)
    for name in SAMPLE_KERNELS:
        shutil.copy(REPO / "samples" / f"{name}.py", kernels)
    for config in (PROJECTS / "kernels").glob("*.yaml"):
        shutil.copy(config, kernels)
    return destination


def touch(path: pathlib.Path, root: pathlib.Path) -> None:
    """Makes `path` newer than every output: first every file under `root` is aged by 10 s
    (keeping their order), then `path` gets the current time. Nothing lies in the future, so
    what a build writes next is newer still, whatever the file system's time resolution."""
    for file in root.rglob("*"):
        if file.is_file() and not file.is_symlink():
            info = file.stat()
            os.utime(file, ns=(info.st_atime_ns - 10**10, info.st_mtime_ns - 10**10))
    os.utime(path)


def mtimes(paths) -> dict:
    return {str(p): p.stat().st_mtime_ns for p in paths}


@pytest.fixture(scope="session")
def installed(tmp_path_factory) -> pathlib.Path:
    """A prefix with helionc installed by `cmake --install` from the build under test."""
    build = pathlib.Path(os.environ.get("HELIONC_BUILD_DIR", REPO / "build"))
    prefix = tmp_path_factory.mktemp("prefix")
    subprocess.run(["cmake", "--install", str(build), "--prefix", str(prefix)], check=True,
                   capture_output=True, timeout=120)
    return prefix
