"""The Bazel rule helion_pallas_library, from the install prefix, on the sample project
projects/bazel/, offline: the workspace has no external repository but the installed rules,
its .bazelrc blocks every download, and every command after the first build runs with
--nofetch (the first one sets up Bazel's local repositories: the platform, the rules).

Needs Debian's bazel-bootstrap (scripts/setup.sh installs it; where it cannot be installed the
tests are skipped, saying so). Each workspace gets its own output root in the temporary
directory, and its Bazel server is shut down at the end.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import make_project, mtimes

BAZEL = shutil.which("bazel")
pytestmark = pytest.mark.skipif(
    BAZEL is None, reason="bazel not found: install Debian's bazel-bootstrap (scripts/setup.sh "
                          "does, unless HELIONC_SKIP_BAZEL=1)")
MODULES = ("add", "softmax", "bias_gelu")


class Workspace:
    def __init__(self, root, output_root, prefix):
        self.root, self.output_root = root, output_root
        with open(root / "WORKSPACE", "a") as workspace:
            workspace.write(f'local_repository(name = "helionc", '
                            f'path = "{prefix}/share/helionc/bazel")\n')

    def bazel(self, *args):
        command = [BAZEL, f"--output_user_root={self.output_root}", "--max_idle_secs=120", *args]
        return subprocess.run(command, cwd=self.root, capture_output=True, text=True,
                              timeout=600, env={**os.environ, "HOME": str(self.output_root)})

    def build(self, *flags):
        result = self.bazel("build", "--nofetch", *flags, "//kernels")
        assert result.returncode == 0, result.stderr
        return result

    def module(self, name):
        return self.root / "bazel-bin/kernels" / f"{name}_pallas.py"

    def modules(self):
        return [self.module(name) for name in MODULES]

    def rebuilt(self, edit=None):
        """The modules a build rewrites after a comment is appended to `edit` (Bazel compares
        contents, not times)."""
        before = mtimes(self.modules())
        if edit is not None:
            with open(self.root / edit, "a") as file:
                file.write("# edited\n")
        self.build()
        after = mtimes(self.modules())
        return sorted(p.rsplit("/", 1)[1].removesuffix("_pallas.py")
                      for p in before if before[p] != after[p])


@pytest.fixture
def workspaces(tmp_path, installed):
    made = []

    def make(name="ws", *flags):
        workspace = Workspace(make_project(tmp_path / name, "bazel"),
                              tmp_path / f"{name}-output", installed)
        first = workspace.bazel("build", *flags, "//kernels")
        assert first.returncode == 0, first.stderr
        workspace.first_build = first
        made.append(workspace)
        return workspace

    yield make
    for workspace in made:
        workspace.bazel("shutdown")


def test_builds_offline_rebuilds_exactly_what_changed(workspaces):
    ws = workspaces()
    header = "\n".join(ws.module("softmax").read_text().splitlines()[:6])  # may be wrapped
    assert " from kernels/softmax.py " in header  # execroot-relative: no machine's path
    assert "# Config of softmax: kernels/softmax.yaml" in header
    assert ws.rebuilt() == []
    assert ws.rebuilt(edit="kernels/softmax.yaml") == ["softmax"]
    assert ws.rebuilt(edit="kernels/add.py") == ["add"]


def test_the_library_is_importable(workspaces):
    ws = workspaces()
    expr = ('[providers(target)["PyInfo"].imports.to_list(), '
            '[f.short_path for f in providers(target)["PyInfo"].transitive_sources.to_list()]]')
    result = ws.bazel("cquery", "--nofetch", "//kernels", "--output=starlark",
                      f"--starlark:expr={expr}")
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == str([
        ["helionc_sample/kernels"],
        ["kernels/add_pallas.py", "kernels/bias_gelu_pallas.py", "kernels/softmax_pallas.py"],
    ]).replace("'", '"')
    # And a user's Python (the test venv, with jax) imports it from there.
    imported = subprocess.run(
        [sys.executable, "-c", "import softmax_pallas; print(softmax_pallas.softmax.__name__)"],
        cwd=ws.root / "bazel-bin/kernels", capture_output=True, text=True, timeout=120,
        env={**os.environ, "JAX_PLATFORMS": "cpu"})
    assert imported.returncode == 0, imported.stderr
    assert imported.stdout == "softmax\n"


def test_remote_cache_hits_across_checkouts(workspaces, tmp_path):
    cache = f"--disk_cache={tmp_path / 'cache'}"
    first = workspaces("first", cache)
    second = workspaces("second", cache)  # another path: another machine's checkout
    result = second.first_build
    # Bazel 4 counts the disk cache as a remote cache.
    assert re.search(r"\b3 remote cache hit\b", result.stderr), result.stderr[-800:]
    for name in MODULES:
        assert first.module(name).read_bytes() == second.module(name).read_bytes()


def test_a_compile_error_fails_the_build(workspaces):
    ws = workspaces()
    kernel = ws.root / "kernels/add.py"
    kernel.write_text(kernel.read_text().replace("x[tile] + y[tile]", "x[tile] + undefined"))
    result = ws.bazel("build", "--nofetch", "//kernels")
    assert result.returncode == 1
    assert "kernels/add.py:" in result.stderr and "undefined" in result.stderr


def test_a_prebuilt_helionc_passed_in_and_kernels(workspaces, helionc):
    ws = workspaces()
    (ws.root / "tools").mkdir()
    shutil.copy2(helionc, ws.root / "tools/helionc")
    (ws.root / "tools/BUILD.bazel").write_text('exports_files(["helionc"])\n')
    build = ws.root / "kernels/BUILD.bazel"
    build.write_text(build.read_text().replace('target = "tpu-v7x",',
                                               'target = "tpu-v7x",\n    helionc = "//tools:helionc",\n'
                                               '    kernels = {"softmax.py": "softmax"},'))
    before = ws.module("add").read_bytes()
    result = ws.bazel("build", "--nofetch", "--subcommands", "//kernels")
    assert result.returncode == 0, result.stderr
    assert "tools/helionc " in result.stderr  # the actions now run the copy
    assert "--kernel softmax" in result.stderr
    assert ws.module("add").read_bytes() == before
