"""The installed CMake package: find_package(helionc) and helionc_generate() on the sample
project projects/cmake/, with the Ninja and the Unix Makefiles generators."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from conftest import REPO, make_project, mtimes, touch

MODULES = ("add", "softmax", "bias_gelu")


def test_install_layout(installed):
    for path in ("bin/helionc", "share/man/man1/helionc.1", "share/helionc/helionc.mk",
                 "lib/cmake/helionc/helioncConfig.cmake",
                 "lib/cmake/helionc/helioncConfigVersion.cmake",
                 "lib/cmake/helionc/HelioncGenerate.cmake",
                 # The --search measure and compile runners (src/driver/candidate_runner.h).
                 "share/helionc/measure/helionc_measure.py",
                 "share/helionc/measure/helionc_compile.py",
                 "share/helionc/measure/helionc_candidates.py"):
        assert (installed / path).is_file(), path


class Project:
    def __init__(self, root, build, generator):
        self.root, self.build, self.generator = root, build, generator

    def run(self, *args):
        return subprocess.run(["cmake", *args], capture_output=True, text=True, timeout=300)

    def configure(self, prefix):
        result = self.run("-S", str(self.root), "-B", str(self.build), "-G", self.generator,
                          f"-DCMAKE_PREFIX_PATH={prefix}")
        assert result.returncode == 0, result.stdout + result.stderr

    def build_all(self):
        return self.run("--build", str(self.build))

    def modules(self):
        return [self.build / "kernels" / f"{name}_pallas.py" for name in MODULES]

    def rebuilt(self, touched=None):
        if touched is not None:
            touch(self.root / touched, self.root)
        before = mtimes(self.modules())
        result = self.build_all()
        assert result.returncode == 0, result.stdout + result.stderr
        after = mtimes(self.modules())
        return sorted(p.rsplit("/", 1)[1].removesuffix("_pallas.py")
                      for p in before if before[p] != after[p])


@pytest.fixture(params=["Ninja", "Unix Makefiles"])
def project(request, tmp_path, installed):
    project = Project(make_project(tmp_path / "src", "cmake"), tmp_path / "build", request.param)
    project.configure(installed)
    result = project.build_all()
    assert result.returncode == 0, result.stdout + result.stderr
    return project


def test_modules_are_built_with_their_configs(project):
    for module in project.modules():
        assert module.is_file()
    lines = (project.build / "kernels/softmax_pallas.py").read_text().splitlines()
    header = "\n".join(lines[:6])  # the header's lines may be wrapped
    # Paths relative to the build directory: the same wherever the checkout lies.
    assert " from ../src/kernels/softmax.py " in header
    assert "# Config of softmax: ../src/kernels/softmax.yaml" in header


def test_nothing_touched_nothing_rebuilt(project):
    assert project.rebuilt() == []


def test_a_touched_config_rebuilds_its_module_only(project):
    assert project.rebuilt(touched="kernels/softmax.yaml") == ["softmax"]
    assert project.rebuilt() == []
    assert project.rebuilt(touched="kernels/bias_gelu.py") == ["bias_gelu"]


def test_a_deleted_output_is_rebuilt(project):
    others = mtimes(project.modules()[1:])
    (project.build / "kernels/add_pallas.py").unlink()
    result = project.build_all()
    assert result.returncode == 0, result.stdout + result.stderr
    assert (project.build / "kernels/add_pallas.py").is_file()
    assert mtimes(project.modules()[1:]) == others


def test_a_compile_error_fails_and_leaves_no_output(project):
    kernel = project.root / "kernels/add.py"
    kernel.write_text(kernel.read_text().replace("x[tile] + y[tile]", "x[tile] + undefined"))
    (project.build / "kernels/add_pallas.py").unlink()
    result = project.build_all()
    assert result.returncode != 0
    assert "undefined" in result.stdout + result.stderr
    assert not (project.build / "kernels/add_pallas.py").exists()


def test_an_unmatched_config_is_a_configure_error(tmp_path, installed):
    root = make_project(tmp_path / "src", "cmake")
    (root / "kernels/other.yaml").write_text("schema_version: 1\nkernel: x\n")
    text = (root / "CMakeLists.txt").read_text()
    (root / "CMakeLists.txt").write_text(
        text.replace("CONFIGS kernels/softmax.yaml", "CONFIGS kernels/other.yaml kernels/softmax.yaml"))
    project = Project(root, tmp_path / "build", "Ninja")
    result = project.run("-S", str(root), "-B", str(project.build), "-G", "Ninja",
                         f"-DCMAKE_PREFIX_PATH={installed}")
    assert result.returncode != 0
    assert "no source for the configs" in result.stderr


def test_tuning_target_rewrites_the_config_only_when_built(tmp_path, installed):
    """helionc_tune(): a target outside ALL that rewrites K.yaml from K.shapes."""
    root = make_project(tmp_path / "src", "cmake")
    shutil.copy2(REPO / "samples/bias_gelu.shapes", root / "kernels/bias_gelu.shapes")
    with open(root / "CMakeLists.txt", "a") as listfile:
        listfile.write("helionc_tune(TARGET tune SOURCES kernels/bias_gelu.py kernels/add.py "
                       "TARGET_TPU tpu-v7x)\n")
    project = Project(root, tmp_path / "build", "Ninja")
    project.configure(installed)
    config = root / "kernels/bias_gelu.yaml"
    hand_written = config.read_text()
    result = project.build_all()
    assert result.returncode == 0, result.stdout + result.stderr
    assert config.read_text() == hand_written  # ALL does not tune
    result = project.run("--build", str(project.build), "--target", "tune")
    assert result.returncode == 0, result.stdout + result.stderr
    tuned = config.read_text()
    assert tuned.startswith("# generated by helionc") and "predicted:" in tuned
    assert project.rebuilt() == ["bias_gelu"]
