"""helionc's dependency files, as the build systems read them (the unit tests cover the parts)."""

from __future__ import annotations

import shutil
import subprocess

from conftest import REPO


def run(helionc, *args, cwd):
    return subprocess.run([str(helionc), *args], cwd=cwd, capture_output=True, text=True,
                          timeout=60)


def test_names_every_file_read_with_relative_paths(helionc, tmp_path):
    shutil.copy(REPO / "samples/bias_gelu.py", tmp_path / "k#1.py")
    (tmp_path / "conf dir").mkdir()
    (tmp_path / "conf dir/k.yaml").write_text(
        "schema_version: 1\nkernel: bias_gelu\ndefault:\n  block_sizes: [128, 256]\n")
    shutil.copytree(REPO / "templates", tmp_path / "tmpl")
    (tmp_path / "tmpl/README.md").write_text("not a template: not read, not named\n")
    result = run(helionc, "k#1.py", "--config", "conf dir/k.yaml", "--template-dir", "tmpl",
                 "-o", "out$.py", "-MD", "-MP", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    templates = sorted(p.name for p in (tmp_path / "tmpl").glob("*.tmpl"))
    assert len(templates) > 2
    expected = "out$$.py: k\\#1.py \\\n conf\\ dir/k.yaml"
    expected += "".join(f" \\\n tmpl/{name}" for name in templates) + "\n"
    expected += "\nconf\\ dir/k.yaml:\n" + "".join(f"\ntmpl/{name}:\n" for name in templates)
    assert (tmp_path / "out$.d").read_text() == expected
    assert (tmp_path / "out$.py").is_file()


def test_shapes_file_and_explicit_target(helionc, tmp_path):
    shutil.copy(REPO / "samples/add.py", tmp_path)
    shutil.copy(REPO / "samples/add.shapes", tmp_path)
    result = run(helionc, "add.py", "--emit", "report", "--shapes-file", "add.shapes",
                 "-o", "add.report", "--depfile", "deps/add.d", "-MT", "report",
                 cwd=tmp_path)
    # The depfile's directory must exist, as with GCC.
    assert result.returncode == 1
    assert "deps/add.d" in result.stderr
    assert not (tmp_path / "add.report").exists()
    (tmp_path / "deps").mkdir()
    result = run(helionc, "add.py", "--emit", "report", "--shapes-file", "add.shapes",
                 "-o", "add.report", "--depfile", "deps/add.d", "-MT", "report",
                 cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "deps/add.d").read_text() == "report: add.py \\\n add.shapes\n"


def test_not_written_when_the_compile_fails(helionc, tmp_path):
    source = (REPO / "samples/add.py").read_text()
    (tmp_path / "k.py").write_text(source.replace("x[tile] + y[tile]", "x[tile] + undefined"))
    (tmp_path / "k_pallas.d").write_text("old depfile\n")
    result = run(helionc, "k.py", "-MD", cwd=tmp_path)
    assert result.returncode == 1
    assert "undefined" in result.stderr
    assert (tmp_path / "k_pallas.d").read_text() == "old depfile\n"
    assert not (tmp_path / "k_pallas.py").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["k.py", "k_pallas.d"]


def test_gcc_flags_reach_the_compiler_not_cli11(helionc, tmp_path):
    shutil.copy(REPO / "samples/add.py", tmp_path)
    result = run(helionc, "-MD", "-MFx.d", "-MT", "a b", "-MP", "add.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "x.d").read_text() == "a b: add.py\n"
    result = run(helionc, "add.py", "-MF", cwd=tmp_path)
    assert result.returncode == 2
    assert "missing argument to '-MF'" in result.stderr


def test_never_replaces_an_input_or_the_output(helionc, tmp_path):
    # The input is an error of the run (exit 1); two outputs naming one file, the module and the
    # depfile, a usage error (exit 2) found before anything is read.
    shutil.copy(REPO / "samples/add.py", tmp_path)
    source = (tmp_path / "add.py").read_text()
    result = run(helionc, "add.py", "-MF", "add.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "the depfile `add.py` is `add.py`" in result.stderr
    result = run(helionc, "add.py", "-MF", "add_pallas.py", cwd=tmp_path)
    assert result.returncode == 2
    assert "the depfile both write `add_pallas.py`" in result.stderr
    assert (tmp_path / "add.py").read_text() == source
    assert not (tmp_path / "add_pallas.py").exists()
