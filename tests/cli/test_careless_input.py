"""The command line against careless input (issue 29): warning names as the warnings print
them, did-you-mean for options, usage errors for an estimate with no call, for two outputs
naming one file and for malformed numbers, and the cap on the number of diagnostics."""

import os
import pathlib
import re
import subprocess

PROJECT_ROOT = pathlib.Path(__file__).resolve().parents[2]
HOST_ONLY = PROJECT_ROOT / "samples" / "host_only.py"
MATMUL = PROJECT_ROOT / "samples" / "matmul.py"
ADD = PROJECT_ROOT / "samples" / "add.py"
# An --autotune run of matmul for one small call (a second or so).
TUNE = (MATMUL, "--autotune", "--shapes", "x=128x128:f32,y=128x128:f32")


def helionc_binary() -> pathlib.Path:
    explicit = os.environ.get("HELIONC")
    return pathlib.Path(explicit) if explicit else PROJECT_ROOT / "build" / "src" / "driver" / "helionc"


def run(*args, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([str(helionc_binary()), *map(str, args)], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def help_warning_names() -> list[str]:
    """The warning names --help lists, in order (the lines after "the names are:")."""
    text = run("--help").stdout
    listing = text.split("the names are:\n", 1)[1]
    names = []
    for line in listing.splitlines():
        match = re.match(r"  ([a-z][a-z-]*)  +\S", line)
        if not match:
            break
        names.append(match[1])
    return names


# ---- -W<name> and -Wno-<name> ----------------------------------------------------------------

def test_the_name_a_warning_prints_is_the_name_the_options_take(tmp_path):
    proc = run(HOST_ONLY, "-o", tmp_path / "out.py")
    assert proc.returncode == 0, proc.stderr
    printed = set(re.findall(r"\[-W([a-z-]+)\]", proc.stderr))
    assert printed == {"missing-device-loop"}
    for name in printed:
        quiet = run(HOST_ONLY, f"-Wno-{name}", "-o", tmp_path / "quiet.py")
        assert quiet.returncode == 0 and quiet.stderr == "", quiet.stderr
        loud = run(HOST_ONLY, f"-Wno-{name}", f"-W{name}", "-o", tmp_path / "loud.py")
        assert loud.returncode == 0 and f"[-W{name}]" in loud.stderr


def test_help_and_man_page_list_every_warning_name():
    names = help_warning_names()
    assert "missing-device-loop" in names and "config-mismatch" in names
    assert not any(name.startswith("no-") for name in names)
    man = (PROJECT_ROOT / "man" / "helionc.1").read_text()
    section = man.split("the names are:\n", 1)[1].split("\n.El\n", 1)[0]
    assert re.findall(r"^\.It Cm (\S+)$", section, re.M) == names
    guide = (PROJECT_ROOT / "docs" / "guide" / "command-line.md").read_text()
    assert re.findall(r"^\| `([a-z-]+)` \|", guide, re.M) == names


def test_unknown_warning_names_are_usage_errors():
    # The old spelling, an error's kind (which no -Wno- could silence) and a typo.
    for flag, hint in [("-Wno-no-device-loop", ""), ("-Wno-syntax-error", ""),
                       ("-Wno-config-mismatc", "; did you mean `config-mismatch`?")]:
        proc = run(ADD, flag, "-o", "-")
        assert proc.returncode == 2, proc.stderr
        assert f"unknown warning option '{flag}'{hint}" in proc.stderr
        assert proc.stdout == ""


def test_unknown_options_get_a_did_you_mean():
    proc = run(ADD, "--budgt", "5")
    assert proc.returncode == 2
    assert "unknown option `--budgt`; did you mean `--budget`?" in proc.stderr
    proc = run(ADD, "--emmit=ir")
    assert proc.returncode == 2
    assert "unknown option `--emmit=ir`; did you mean `--emit`?" in proc.stderr


def test_the_warnings_part_of_help_fits_100_columns():
    footer = run("--help").stdout.split("Warnings:", 1)[1]
    assert all(len(line) <= 100 for line in footer.splitlines())


# ---- usage errors --------------------------------------------------------------------------

def test_estimate_without_calls_is_a_usage_error(tmp_path):
    # A config's shape entries are calls; its default alone is none.
    config = tmp_path / "mm.yaml"
    config.write_text("schema_version: 1\nkernel: matmul\ndefault: {block_sizes: [64, 64, 64]}\n")
    for extra in [(), ("--config", config)]:
        proc = run(MATMUL, "--estimate", *extra)
        assert proc.returncode == 2
        assert "--estimate has no call to estimate: give --shapes or --shapes-file" in proc.stderr
        assert proc.stdout == ""


def test_two_outputs_naming_one_file_are_refused(tmp_path):
    (tmp_path / "d").mkdir()
    target = tmp_path / "X"
    for output, config_out in [(target, target), (target, tmp_path / "d" / ".." / "X")]:
        proc = run(*TUNE, "-o", output,
                   "--config-out", config_out)
        assert proc.returncode == 2, proc.stderr
        assert "-o and --config-out both write" in proc.stderr
        assert not target.exists()
    # A symlink to the other output is the same file.
    (tmp_path / "link").symlink_to(target)
    proc = run(ADD, "-o", target, "--depfile", tmp_path / "link")
    assert proc.returncode == 2
    assert "-o and the depfile both write" in proc.stderr
    # Standard output and /dev/null may be named twice.
    proc = run(*TUNE, "-q", "-o", "/dev/null",
               "--config-out", "/dev/null")
    assert proc.returncode == 0, proc.stderr


def test_malformed_seconds_are_named():
    for value in ["0,05", "abc", "1e999", "-1"]:
        proc = run(*TUNE, "--budget", value)
        assert proc.returncode == 2
        assert proc.stderr.startswith(f"helionc: error: --budget: `{value}`"), proc.stderr
        assert len(proc.stderr) < 200, proc.stderr
    proc = run(*TUNE, "-q", "--budget", "0.5")
    assert proc.returncode == 0, proc.stderr


# ---- the cap on diagnostics ----------------------------------------------------------------

def test_max_errors_caps_the_diagnostics(tmp_path):
    config = tmp_path / "dup.yaml"
    config.write_text("schema_version: 1\nkernel: add\ndefault:\n"
                      + "  block_sizes: [8, 128]\n" * 1000)
    proc = run(ADD, "--config", config, "-o", tmp_path / "out.py")
    assert proc.returncode == 1
    assert proc.stderr.count(": error: ") == 20
    assert proc.stderr.endswith("helionc: note: stopped after 20 errors; 979 more errors and 0 "
                                "more warnings are not shown (-fmax-errors=0 shows all)\n")
    proc = run(ADD, "--config", config, "-o", tmp_path / "out.py", "-fmax-errors=0")
    assert proc.returncode == 1
    assert proc.stderr.count(": error: ") == 999
    proc = run(ADD, "--config", config, "-o", tmp_path / "out.py", "-fmax-errors=3")
    assert proc.stderr.count(": error: ") == 3
    proc = run(ADD, "-fmax-errors=x")
    assert proc.returncode == 2
    assert "-fmax-errors: `x` is not a count of errors" in proc.stderr
