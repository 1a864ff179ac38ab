"""The Make rules (rules/make/helionc.mk) on the sample project projects/make/."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

from conftest import REPO, make_project, mtimes, touch

MODULES = ("add", "softmax", "bias_gelu")


def make(project, *targets, mk=REPO / "rules/make/helionc.mk"):
    return subprocess.run(["make", "-C", str(project), f"HELIONC={project / COMPILER}",
                           f"HELIONC_MK={mk}", *targets],
                          capture_output=True, text=True, timeout=300)


# The compiler is a prerequisite of every module; the project gets its own copy, so that
# touch() ages it with the modules (the build's binary may be only seconds old).
COMPILER = ".bin/helionc"


@pytest.fixture
def project(tmp_path, helionc):
    project = make_project(tmp_path / "project", "make")
    (project / COMPILER).parent.mkdir()
    shutil.copy2(helionc, project / COMPILER)
    result = make(project)
    assert result.returncode == 0, result.stdout + result.stderr
    return project


def modules(project):
    return [project / "kernels" / f"{name}_pallas.py" for name in MODULES]


def rebuilt(project, touched=None):
    """Names of the modules a `make` rebuilds after touching `touched`."""
    if touched is not None:
        touch(project / touched, project)
    before = mtimes(modules(project))
    result = make(project)
    assert result.returncode == 0, result.stdout + result.stderr
    after = mtimes(modules(project))
    return sorted(pathlib_name(path) for path in before if before[path] != after[path])


def pathlib_name(path: str) -> str:
    return path.rsplit("/", 1)[1].removesuffix("_pallas.py")


def test_first_build_uses_the_conventional_configs(project):
    for module in modules(project):
        assert module.is_file()
    softmax = (project / "kernels/softmax_pallas.py").read_text()
    assert "kernels/softmax.yaml" in softmax  # the header names the configs used
    depfile = (project / "kernels/softmax_pallas.d").read_text()
    assert depfile.startswith("kernels/softmax_pallas.py: kernels/softmax.py \\\n "
                              "kernels/softmax.yaml\n")


def test_nothing_touched_nothing_rebuilt(project):
    assert rebuilt(project) == []
    assert make(project, "-q").returncode == 0


def test_a_touched_config_rebuilds_its_module_only(project):
    assert rebuilt(project, touched="kernels/softmax.yaml") == ["softmax"]
    assert rebuilt(project, touched="kernels/bias_gelu.py") == ["bias_gelu"]


def test_a_new_config_by_convention_rebuilds(project):
    (project / "kernels/add.yaml").write_text(
        "schema_version: 1\nkernel: add\ndefault:\n  block_sizes: [8, 128]\n")
    assert rebuilt(project, touched="kernels/add.yaml") == ["add"]
    assert "kernels/add.yaml" in (project / "kernels/add_pallas.py").read_text()


def test_a_variable_overrides_the_convention(project):
    (project / "kernels/alt.yaml").write_text(
        "schema_version: 1\nkernel: softmax\ndefault:\n  block_sizes: [32]\n")
    result = make(project, "HELIONC_CONFIGS_kernels/softmax=kernels/alt.yaml")
    assert result.returncode == 0, result.stdout + result.stderr
    header = (project / "kernels/softmax_pallas.py").read_text()
    assert "kernels/alt.yaml" in header and "kernels/softmax.yaml" not in header


def test_a_deleted_config_rebuilds_without_it(project):
    (project / "kernels/softmax.yaml").unlink()
    touch(project / "kernels/softmax.py", project)
    result = make(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "softmax.yaml" not in (project / "kernels/softmax_pallas.py").read_text()


def test_a_deleted_output_is_rebuilt(project):
    (project / "kernels/add_pallas.py").unlink()
    result = make(project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert (project / "kernels/add_pallas.py").is_file()


def test_a_compile_error_fails_and_leaves_no_output(project):
    kernel = project / "kernels/add.py"
    kernel.write_text(kernel.read_text().replace("x[tile] + y[tile]", "x[tile] + undefined"))
    (project / "kernels/add_pallas.py").unlink()
    result = make(project)
    assert result.returncode != 0
    assert "undefined" in result.stderr
    assert not (project / "kernels/add_pallas.py").exists()
    # Make tries again next time rather than trusting anything left behind.
    again = make(project)
    assert again.returncode != 0


def test_an_error_in_a_kept_output_is_retried(project):
    # A module that exists but is older than its broken kernel stays older: helionc writes
    # nothing on error, so the next make compiles (and fails) again.
    kernel = project / "kernels/add.py"
    kernel.write_text(kernel.read_text().replace("x[tile] + y[tile]", "x[tile] + undefined"))
    touch(kernel, project)
    assert make(project).returncode != 0
    assert make(project).returncode != 0


def test_the_installed_rules_use_the_installed_compiler(tmp_path, installed):
    project = make_project(tmp_path / "project", "make")
    environment = {k: v for k, v in os.environ.items() if k != "HELIONC"}
    result = subprocess.run(["make", "-C", str(project),
                             f"HELIONC_MK={installed}/share/helionc/helionc.mk"],
                            capture_output=True, text=True, timeout=300, env=environment)
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"{installed}/share/helionc/../../bin/helionc " in result.stdout
    assert (project / "kernels/add_pallas.py").is_file()


def test_tuning_runs_only_when_asked(project):
    """`make helionc-tune` rewrites K.yaml from K.shapes with --autotune; `make` never tunes."""
    shapes = project / "kernels/bias_gelu.shapes"
    shutil.copy2(REPO / "samples/bias_gelu.shapes", shapes)
    config = project / "kernels/bias_gelu.yaml"
    hand_written = config.read_text()
    assert rebuilt(project, touched="kernels/bias_gelu.shapes") == []
    assert config.read_text() == hand_written
    result = make(project, "helionc-tune")
    assert result.returncode == 0, result.stdout + result.stderr
    tuned = config.read_text()
    assert tuned.startswith("# generated by helionc"), tuned[:200]
    assert "predicted:" in tuned
    # The tuned config is an ordinary input of the module: it rebuilds that module alone.
    assert rebuilt(project) == ["bias_gelu"]
    assert rebuilt(project) == []
    # Tuning again with the same inputs writes the same bytes.
    assert make(project, "helionc-tune").returncode == 0
    assert config.read_text() == tuned
