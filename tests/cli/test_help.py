"""`helionc --help` as a person reads it: options grouped by task, every line within 100
columns, the warnings' names, and examples at the end. The man page uses the same groups
(checked here); that every option is in both is tests/buildsys/test_cli.py's."""

import os
import pathlib
import re
import subprocess

PROJECT_ROOT = pathlib.Path(__file__).resolve().parents[2]
MAN_PAGE = PROJECT_ROOT / "man" / "helionc.1"
GROUPS = ["General", "Output", "Tuning", "Search", "Diagnostics", "Build integration"]


def helionc_binary() -> pathlib.Path:
    explicit = os.environ.get("HELIONC")
    return pathlib.Path(explicit) if explicit else PROJECT_ROOT / "build" / "src" / "driver" / "helionc"


def help_text() -> str:
    proc = subprocess.run([str(helionc_binary()), "--help"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def help_groups(text: str) -> dict[str, set[str]]:
    """Each group of --help with the long (else short) names of its options."""
    groups: dict[str, set[str]] = {}
    current = None
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            current = line[:-1]
            groups[current] = set()
        elif current is not None and re.match(r"  -", line):
            names = re.findall(r"(--?[A-Za-z][A-Za-z0-9-]*)", line.split("  ", 2)[1])
            groups[current].add(max(names, key=len))
    return groups


def man_groups() -> dict[str, set[str]]:
    """Each `.Ss` subsection of the man page's DESCRIPTION with the options its `.It Fl`
    entries describe (the longest spelling of each entry)."""
    groups: dict[str, set[str]] = {}
    current = None
    for line in MAN_PAGE.read_text().splitlines():
        if line.startswith(".Sh "):
            current = None
        elif line.startswith(".Ss "):
            current = line[4:]
            groups[current] = set()
        elif current is not None and line.startswith(".It Fl "):
            flags = ["-" + f for f in re.findall(r"\bFl ([A-Za-z-][A-Za-z0-9-]*)", line)]
            groups[current].add(max(flags, key=len))
    return groups


def test_every_line_fits_100_columns():
    long = [line for line in help_text().splitlines() if len(line) > 100]
    assert long == []


def test_options_are_grouped_by_task_in_order():
    groups = help_groups(help_text())
    assert [g for g in groups if g in GROUPS] == GROUPS
    assert {"--output", "--emit", "--estimate", "--kernel", "--target"} <= groups["Output"]
    assert {"--config", "--shapes", "--autotune", "--config-out"} <= groups["Tuning"]
    assert "--resume" in groups[GROUPS[3]] and "--autotune" not in groups[GROUPS[3]]
    assert {"--color", "--dump-after", "--verbose"} <= groups["Diagnostics"]
    assert groups["Build integration"] == {"--depfile"}
    # No option is left in CLI11's catch-all group.
    assert "Options" not in groups


def test_the_man_page_has_the_same_groups_with_the_same_options():
    from_help = help_groups(help_text())
    from_man = man_groups()
    for group in GROUPS:
        assert group in from_man, f"man/helionc.1 has no `.Ss {group}`"
        # The man page also describes the spellings --help mentions in passing (-MD, -W...).
        assert from_help[group] <= from_man[group], group


def test_help_ends_with_examples_that_fit():
    text = help_text()
    examples = text.split("\nExamples:\n", 1)[1]
    commands = [line.strip() for line in examples.splitlines() if line.startswith("    helionc ")]
    assert len(commands) >= 4
    assert any("--autotune" in c for c in commands) and any("-MD" in c for c in commands)
    # Nothing follows the examples.
    assert examples.rstrip("\n").splitlines()[-1].startswith("    helionc ")


def test_the_warnings_and_exit_statuses_are_listed():
    text = help_text()
    assert "-Wno-<name>" in text and "-fmax-errors=N" in text
    assert "Exit status: 0 success" in text
    assert text.index("the names are:") < text.index("Exit status") < text.index("Examples:")
