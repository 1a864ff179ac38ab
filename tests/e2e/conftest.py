"""Fixtures of the end-to-end tests: the compiler, compiled modules, and TPU lowering on CPU.

The compiler is `$HELIONC` (ctest sets it to the built target) or build/src/driver/helionc.
When HELIONC is not set and the default binary does not exist, the tests are skipped with a
message; when HELIONC names a missing file they fail.
"""

from __future__ import annotations

import fcntl
import importlib.util
import os
import pathlib
import shutil
import subprocess
import sys

# Run on the CPU unless told otherwise: the numerics tests use Pallas's interpreter, and the
# TPU checks lower without a TPU. Set before jax is imported.
os.environ.setdefault("JAX_PLATFORMS", "cpu")

import pytest  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

from e2e_support import (  # noqa: E402
    PROJECT_ROOT,
    SAMPLES_DIR,
    CompileError,
    helionc_path,
    compile_for_tpu,
)

COMPILE_TIMEOUT_S = 60


def pytest_configure(config):
    config.addinivalue_line("markers", "tpu: compiles for a TPU with libtpu (ctest `e2e.tpu`, the compile checks)")
    config.addinivalue_line("markers", "quick: the developer's tier (scripts/test.sh --quick): every sample once")


def pytest_collection_modifyitems(config, items):
    """Every test that compiles for a TPU is marked `tpu`: ctest runs those apart from the
    interpret-mode tests (`-m tpu` / `-m "not tpu"`), so that each stage's time shows."""
    for item in items:
        if "tpu_lower" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.tpu)


# ---------------------------------------------------------------------------------------------
# the compiler


class Compiler:
    """Runs helionc; caches each (sample, config) module for the whole session."""

    def __init__(self, binary: pathlib.Path, workdir: pathlib.Path, shared_dir: pathlib.Path):
        self.binary = binary
        self.workdir = workdir
        self.shared_dir = shared_dir
        self._modules: dict[tuple, object] = {}

    def run(self, args: list[str], **kwargs) -> subprocess.CompletedProcess:
        return subprocess.run(
            [str(self.binary), *args],
            cwd=PROJECT_ROOT,
            capture_output=True,
            text=True,
            timeout=COMPILE_TIMEOUT_S,
            **kwargs,
        )

    def compile(self, sample: str, kernel: str, config_id: str | None, block_sizes=None, loop_types=(),
                load_buffers=()) -> pathlib.Path:
        """Compile samples/<sample>.py (with a config when config_id is given); return the module path."""
        tag = config_id or "default"
        out = self.workdir / f"{sample}__{tag}_pallas.py"
        args = [f"samples/{sample}.py", "-o", str(out)]
        if config_id is not None:
            cfg = self.workdir / f"{sample}__{tag}.yaml"
            cfg.write_text(config_yaml(kernel, block_sizes, loop_types, load_buffers))
            args += ["--config", str(cfg)]
        proc = self.run(args)
        cmd = " ".join([str(self.binary), *args])
        if proc.returncode != 0:
            raise CompileError(f"`{cmd}` exited with {proc.returncode}:\n{proc.stderr}{proc.stdout}")
        if not out.is_file():
            raise CompileError(f"`{cmd}` exited with 0 but wrote no {out}")
        return out

    def compile_once(self, sample: str, kernel: str, config_id: str | None, block_sizes=None,
                     loop_types=()) -> pathlib.Path:
        """compile(), once per (sample, config) for the whole run: pytest-xdist's workers share
        the modules in the run's common temporary folder (a lock file per module, so that two
        workers asking at once compile it once)."""
        tag = config_id or "default"
        cached = self.shared_dir / f"{sample}__{tag}_pallas.py"
        with open(self.shared_dir / f"{sample}__{tag}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not cached.is_file():
                built = self.compile(sample, kernel, config_id, block_sizes, loop_types)
                shutil.copyfile(built, cached.with_suffix(".tmp"))
                os.replace(cached.with_suffix(".tmp"), cached)
        return cached

    def module(self, sample: str, kernel: str, config_id: str | None, block_sizes=None, loop_types=()):
        """The imported generated module; a failed compile fails every test that asks for it."""
        key = (sample, config_id)
        if key not in self._modules:
            try:
                path = self.compile_once(sample, kernel, config_id, block_sizes, loop_types)
                self._modules[key] = import_module(path, f"helionc_e2e.{sample}.{config_id or 'default'}")
            except CompileError as e:
                self._modules[key] = e
            except Exception as e:  # an import error in the generated code
                self._modules[key] = CompileError(f"importing the module generated for {key} failed: {e!r}")
        result = self._modules[key]
        if isinstance(result, CompileError):
            pytest.fail(str(result), pytrace=False)
        return result


def config_yaml(kernel: str, block_sizes, loop_types=(), load_buffers=()) -> str:
    """A one-kernel config: `block_sizes`, and `pallas_loop_type` / `pallas_load_buffer_count`
    when given."""
    sizes = ", ".join(str(b) for b in block_sizes)
    text = f"schema_version: 1\nkernel: {kernel}\ndefault:\n  block_sizes: [{sizes}]\n"
    if loop_types:
        text += f"  pallas_loop_type: [{', '.join(loop_types)}]\n"
    if load_buffers:
        text += f"  pallas_load_buffer_count: [{', '.join(map(str, load_buffers))}]\n"
    return text


def import_module(path: pathlib.Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def helionc(tmp_path_factory) -> Compiler:
    binary, explicit = helionc_path()
    if not binary.is_file() or not os.access(binary, os.X_OK):
        message = f"helionc not found at {binary}"
        if explicit:
            pytest.fail(f"{message} (from $HELIONC)", pytrace=False)
        pytest.skip(f"{message}; build it or set HELIONC")
    # Under pytest-xdist each worker has its own base folder; their parent is the run's.
    # scripts/test.sh hands both e2e stages one temporary folder of its own (removed when the
    # suite ends), so that the compile checks reuse the modules the interpret-mode stage made.
    base = tmp_path_factory.getbasetemp()
    given = os.environ.get("HELIONC_E2E_MODULE_DIR")
    if given:
        shared = pathlib.Path(given)
    else:
        shared = (base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base) / "helionc-modules"
    shared.mkdir(exist_ok=True)
    return Compiler(binary, tmp_path_factory.mktemp("helionc"), shared)


@pytest.fixture(scope="session")
def samples_dir() -> pathlib.Path:
    return SAMPLES_DIR


# Tests (`file::id`) of cases the TPU compiler still refuses, one per line: the list only shrinks. A listed
# case must still be refused (it is reported as xfail with the compiler's message); one that
# compiles fails until its line is removed, so the list always says exactly what is left.
KNOWN_REFUSALS_FILE = pathlib.Path(__file__).resolve().parent / "tpu_refusals.txt"


def known_refusals() -> frozenset[str]:
    if not KNOWN_REFUSALS_FILE.is_file():
        return frozenset()
    lines = (line.strip() for line in KNOWN_REFUSALS_FILE.read_text().splitlines())
    return frozenset(line for line in lines if line and not line.startswith("#"))


KNOWN_REFUSALS = known_refusals()


@pytest.fixture
def tpu_lower(request):
    """`tpu_lower(fn, *shape_dtype_structs, generation=...)`: the real TPU compile of
    compile_for_tpu (e2e_support), checked against the list of known refusals."""
    path, _, name = request.node.nodeid.partition("::")
    case = f"{pathlib.Path(path).name}::{name}"

    def compile_checked(fn, *args, **kwargs):
        if case not in KNOWN_REFUSALS:
            return compile_for_tpu(fn, *args, **kwargs)
        try:
            compile_for_tpu(fn, *args, **kwargs)
        except Exception as e:  # the compiler's refusal, as expected
            pytest.xfail(f"known TPU refusal ({KNOWN_REFUSALS_FILE.name}): {str(e).splitlines()[0][:300]}")
        pytest.fail(f"{case} compiles for TPU now: remove it from {KNOWN_REFUSALS_FILE.name}", pytrace=False)

    return compile_checked
