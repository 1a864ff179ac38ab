"""Which files of samples/ are what, for every tool that walks the folder (standard library
only, so that scripts without the venv can use it too).

A sample is three files: samples/<name>.py (the Helion kernel), samples/<name>.shapes (its calls,
which users and the autotuner read too) and samples/<name>.expect.py (what the tests expect of it:
its numpy reference and SampleSpec, tests/e2e/expectations.py). The expectation files end in
`.py` so that editors and Python treat them as code; a tool that wants the kernels therefore
lists them with `sample_kernels()`, never with a bare `*.py` glob.
"""

from __future__ import annotations

import pathlib

SAMPLES_DIR = pathlib.Path(__file__).resolve().parents[2] / "samples"
EXPECT_SUFFIX = ".expect.py"


def sample_kernels(folder: pathlib.Path = SAMPLES_DIR) -> list[pathlib.Path]:
    """The kernel files of `folder`, sorted: every `*.py` but the expectation files."""
    return sorted(p for p in folder.glob("*.py") if not p.name.endswith(EXPECT_SUFFIX))


def expectation_files(folder: pathlib.Path = SAMPLES_DIR) -> dict[str, pathlib.Path]:
    """Sample name -> its expectation file, sorted by name."""
    return {p.name[: -len(EXPECT_SUFFIX)]: p for p in sorted(folder.glob("*" + EXPECT_SUFFIX))}
