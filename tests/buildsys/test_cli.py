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


# An option as --help and the man page spell it: `--output`, `-o`, `-MD`, and for the warning
# flags `-W` and `-Wno-` (from -W<name>, -Wno-<name>).
OPTION = re.compile(r"(?<![\w-])(--?[A-Za-z][A-Za-z0-9-]*)")


def help_options(helionc):
    return set(OPTION.findall(helionc_output(helionc, "--help")))


def man_options(lines_starting=""):
    """Every `Fl x` of the mdoc source is the option `-x` (`Fl -output` is --output); with
    `lines_starting`, only those on such lines (`.It`: the entries of the option list)."""
    lines = (REPO / "man/helionc.1").read_text().splitlines()
    text = "\n".join(line for line in lines if line.startswith(lines_starting))
    return {"-" + flag for flag in re.findall(r"\bFl ([A-Za-z-][A-Za-z0-9-]*)", text)}


def test_every_help_option_is_in_the_man_page_and_back(helionc):
    described, mentioned, offered = man_options(".It "), man_options(), help_options(helionc)
    assert "--depfile" in offered and "-MD" in offered and "-Wno-" in offered
    assert offered - described == set(), "in --help, with no entry in man/helionc.1"
    assert mentioned - offered == set(), "in man/helionc.1, not in --help"


def test_the_man_page_is_clean_for_groff_and_mandoc():
    page = str(REPO / "man/helionc.1")
    groff = subprocess.run(["groff", "-man", "-ww", "-z", page], capture_output=True, text=True,
                           timeout=60)
    assert groff.returncode == 0 and groff.stderr == "", groff.stderr
    mandoc = subprocess.run(["mandoc", "-T", "lint", "-W", "warning", page], capture_output=True,
                            text=True, timeout=60)
    assert mandoc.returncode == 0 and mandoc.stdout + mandoc.stderr == "", mandoc.stdout


def test_paths_are_quoted_as_given(helionc, tmp_path):
    (tmp_path / "k").mkdir()
    (tmp_path / "work").mkdir()
    source = (REPO / "samples/bias_gelu.py").read_text()
    (tmp_path / "k/ok.py").write_text(source)
    (tmp_path / "k/bad.py").write_text(source.replace("bias[tile_n]", "undefined_name", 1))
    (tmp_path / "k/ok.yaml").write_text(
        "schema_version: 1\nkernel: bias_gelu\ndefault:\n  block_sizes: [128, 256]\n")

    def run(*args):
        return subprocess.run([str(helionc), *args], cwd=tmp_path / "work", capture_output=True,
                              text=True, timeout=60)

    ok = run("../k/ok.py", "--config", "./../k/ok.yaml", "-o", "-")
    assert ok.returncode == 0, ok.stderr
    header = "\n".join(ok.stdout.splitlines()[:6])  # the header's lines may be wrapped
    assert " from ../k/ok.py (sha256" in header
    assert "# Config of bias_gelu: ./../k/ok.yaml" in header
    bad = run("../k/bad.py", "--color", "never", "-o", "-")
    assert bad.returncode == 1 and bad.stdout == ""
    assert re.match(r"\.\./k/bad\.py:\d+:\d+: error: ", bad.stderr), bad.stderr
    json = run("../k/bad.py", "--diagnostics-format", "json", "-o", "-")
    assert '"file": "../k/bad.py"' in json.stderr
    assert str(tmp_path) not in bad.stderr + json.stderr + ok.stdout
