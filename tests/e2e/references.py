"""Every sample's expectations, loaded from samples/<name>.expect.py: SAMPLES, SAMPLES_BY_NAME.

Each expectation file holds one sample's numpy reference and its SampleSpec as `SPEC`, importing
what several samples share from expectations.py (sample_files.py says which file is what).
Adding a sample is adding its three files; test_harness.py checks that no sample lacks one.
SAMPLES is in name order; nothing depends on the order (test ids name the sample).
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
from types import ModuleType
from typing import Callable

from e2e_support import Call, parse_call, read_shapes_file
from expectations import SampleSpec
from sample_files import SAMPLES_DIR, expectation_files


def _load(name: str, path: pathlib.Path) -> ModuleType:
    module_name = f"expect_{name}"
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module  # as an import would: dataclasses and pickle look it up
    loader_spec.loader.exec_module(module)
    spec = getattr(module, "SPEC", None)
    if not isinstance(spec, SampleSpec) or spec.name != name:
        raise ImportError(f"{path}: SPEC must be the SampleSpec of samples/{name}.py (name={name!r})")
    return module


# sample name -> its loaded expectation file (for the helpers a test borrows from one)
EXPECTATION_MODULES: dict[str, ModuleType] = {
    name: _load(name, path) for name, path in expectation_files().items()
}
SAMPLES: tuple[SampleSpec, ...] = tuple(module.SPEC for module in EXPECTATION_MODULES.values())
SAMPLES_BY_NAME = {s.name: s for s in SAMPLES}


def reference_of(name: str) -> Callable:
    """The numpy reference of samples/<name>.py (its SPEC.reference)."""
    return SAMPLES_BY_NAME[name].reference


def calls_of(spec: SampleSpec) -> list[Call]:
    """The sidecar's calls, then the extra test-only shapes."""
    return read_shapes_file(SAMPLES_DIR / f"{spec.name}.shapes") + [parse_call(s) for s in spec.extra_shapes]
