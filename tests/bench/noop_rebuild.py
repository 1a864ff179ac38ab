#!/usr/bin/env python3
"""No-op rebuild time of the build-integration sample projects (tests/buildsys/projects/).

Installs the build under test into a temporary prefix, builds each sample project once, then
times N rebuilds with nothing changed (whole command: make, `cmake --build` with Ninja and with
Unix Makefiles, `bazel build` with a warm server) and prints the median and the minimum. Bazel
is left out when it is not installed.

    tests/bench/noop_rebuild.py [--runs 10] [--build-dir build]
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests/buildsys"))
from conftest import make_project  # noqa: E402


def timed(command, cwd, runs):
    subprocess.run(command, cwd=cwd, check=True, capture_output=True)  # the first build
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, cwd=cwd, check=True, capture_output=True)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--build-dir", type=pathlib.Path, default=ROOT / "build")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp:
        temp = pathlib.Path(temp)
        prefix = temp / "prefix"
        subprocess.run(["cmake", "--install", str(args.build_dir), "--prefix", str(prefix)],
                       check=True, capture_output=True)
        rows = []
        make = make_project(temp / "make", "make")
        rows.append(("make", *timed(["make", f"HELIONC_MK={prefix}/share/helionc/helionc.mk"],
                                    make, args.runs)))
        for generator in ("Ninja", "Unix Makefiles"):
            source = make_project(temp / generator.replace(" ", "_"), "cmake")
            build = source / "build"
            subprocess.run(["cmake", "-S", str(source), "-B", str(build), "-G", generator,
                            f"-DCMAKE_PREFIX_PATH={prefix}"], check=True, capture_output=True)
            rows.append((f"CMake, {generator}",
                         *timed(["cmake", "--build", str(build)], source, args.runs)))
        if shutil.which("bazel"):
            workspace = make_project(temp / "bazel", "bazel")
            with open(workspace / "WORKSPACE", "a") as file:
                file.write(f'local_repository(name = "helionc", '
                           f'path = "{prefix}/share/helionc/bazel")\n')
            bazel = ["bazel", f"--output_user_root={temp / 'bazel-root'}"]
            try:
                rows.append(("Bazel (warm server)",
                             *timed([*bazel, "build", "//kernels"], workspace, args.runs)))
            finally:
                subprocess.run([*bazel, "shutdown"], cwd=workspace, capture_output=True)
    print(f"| build system | no-op rebuild, median of {args.runs} | min |")
    print("| --- | --- | --- |")
    for name, median, least in rows:
        print(f"| {name} | {median:.0f} ms | {least:.0f} ms |")


if __name__ == "__main__":
    main()
