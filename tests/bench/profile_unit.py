"""One unit of the kernel profile: compile a sample with one config (or take a hand-written JAX
kernel), lower it for TPU on the CPU, and count its Mosaic MLIR (mosaic_counts).

Runs in worker processes (kernel_profile.py); takes and returns plain data.
"""

from __future__ import annotations

import dataclasses
import importlib.util
import math
import os
import pathlib
import subprocess
import tempfile

os.environ.setdefault("JAX_PLATFORMS", "cpu")

import jax  # noqa: E402

from e2e_support import PROJECT_ROOT, kernels_in, parse_call  # noqa: E402
from mosaic_capture import mosaic_modules  # noqa: E402
from mosaic_counts import Counts, per_step  # noqa: E402
from mosaic_eval import executed  # noqa: E402
from mosaic_mlir import parse_module  # noqa: E402

COMPILE_TIMEOUT_S = 60
# A kernel with loops whose trip counts depend on the program ids is also evaluated over its
# whole grid (mosaic_eval.executed), when the grid is no larger than this, so that its work
# per step can be given as the mean of the steps rather than with each such loop run once.
MAX_EVALUATED_STEPS = 1 << 14
STRATEGIES = ("unroll", "grid", "emit_pipeline", "fori_loop")  # `pallas_loop_type` values


@dataclasses.dataclass
class Launch:
    """The counts of one pallas_call."""

    name: str
    grid: tuple[int, ...]
    step: Counts  # one grid step (mosaic_counts.per_step)
    total: Counts | None = None  # the whole grid, evaluated (when asked or loops are dynamic)
    steps: int = 0
    sources: dict[str, str] = dataclasses.field(default_factory=dict)  # "file:line" -> its text


@dataclasses.dataclass
class Result:
    launches: list[Launch] = dataclasses.field(default_factory=list)
    error: str | None = None


def applicable_strategies(helionc: str, sample: str, kernel: str, workdir: pathlib.Path) -> list[list[str]]:
    """Per inner loop of the kernel, the strategies that `--dump-after plan-launches` says apply
    (lines `inner loop N (line L) ...: unroll; grid; ...`)."""
    module = workdir / f"{sample}__plan_pallas.py"  # never a system path: tests run as root
    proc = subprocess.run([helionc, f"samples/{sample}.py", "--kernel", kernel, "--dump-after", "plan-launches",
                           "-o", str(module)], cwd=PROJECT_ROOT, capture_output=True, text=True,
                          timeout=COMPILE_TIMEOUT_S)
    if proc.returncode != 0:
        raise RuntimeError(f"helionc --dump-after plan-launches failed for {sample}:\n{proc.stderr}")
    loops = []
    for line in (proc.stdout + proc.stderr).splitlines():
        head, _, verdicts = line.strip().partition(":")
        if head.startswith("inner loop "):
            words = (item.split() for item in verdicts.split(";"))
            loops.append([w[0] for w in words if w and w[0] in STRATEGIES])
    return loops


def config_text(kernel: str, blocks: tuple[int, ...], loop_types: tuple[str, ...]) -> str:
    text = f"schema_version: 1\nkernel: {kernel}\ndefault:\n  block_sizes: [{', '.join(map(str, blocks))}]\n"
    if loop_types:
        text += f"  pallas_loop_type: [{', '.join(loop_types)}]\n"
    return text


def compile_sample(helionc: str, sample: str, kernel: str, blocks, loop_types, workdir: pathlib.Path) -> pathlib.Path:
    tag = "-".join([sample, "x".join(map(str, blocks)) or "none", *loop_types])
    # Two cases of one sample (dividing and partial shapes) compile the same config in parallel
    # worker processes: each gets a folder of its own, so that neither reads the other's
    # half-written config.
    workdir = pathlib.Path(tempfile.mkdtemp(prefix=f"{tag}-", dir=workdir))
    config = workdir / f"{tag}.yaml"
    config.write_text(config_text(kernel, blocks, loop_types))
    out = workdir / f"{tag}_pallas.py"
    proc = subprocess.run([helionc, f"samples/{sample}.py", "--config", str(config), "-o", str(out)],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=COMPILE_TIMEOUT_S)
    if proc.returncode != 0:
        raise RuntimeError(f"helionc exited with {proc.returncode}:\n{proc.stderr}{proc.stdout}")
    return out


def _import(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(f"helionc_profile.{path.stem}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _arguments(sample: str, kernel: str, call_text: str) -> list[jax.ShapeDtypeStruct]:
    """The call's tensors in the kernel's parameter order (scalars keep their defaults)."""
    signature = next(k for k in kernels_in(PROJECT_ROOT / "samples" / f"{sample}.py") if k.name == kernel)
    by_name = {t.name: t for t in parse_call(call_text).tensors}
    return [jax.ShapeDtypeStruct(by_name[p].shape, by_name[p].dtype) for p in signature.params if p in by_name]


def count(fn, args, source: pathlib.Path, evaluate: bool) -> list[Launch]:
    """Counts of each pallas_call of fn(*args); ops are attributed to lines of `source`."""
    launches = []
    lines = source.read_text().splitlines()
    for text in mosaic_modules(fn, *args):
        module = parse_module(text)
        func = module.kernel()
        launch = Launch(func.name, func.iteration_bounds(), per_step(func, module, source.name))
        grid_steps = math.prod(launch.grid)
        if evaluate or (launch.step.dynamic_loops and grid_steps <= MAX_EVALUATED_STEPS):
            launch.total, launch.steps = executed(func, module, source.name)
        for _, where in launch.step.by_line:
            name, _, number = where.rpartition(":")
            if name == source.name and number.isdigit() and 0 < int(number) <= len(lines):
                launch.sources[where] = lines[int(number) - 1].strip()
        launches.append(launch)
    return launches


def profile_sample(helionc: str, sample: str, kernel: str, blocks, loop_types, call_text: str,
                   workdir: str, evaluate: bool) -> Result:
    try:
        path = compile_sample(helionc, sample, kernel, tuple(blocks), tuple(loop_types), pathlib.Path(workdir))
        fn = getattr(_import(path), kernel)
        args = _arguments(sample, kernel, call_text)
        return Result(count(lambda *a: fn(*a, interpret=False), args, path, evaluate))
    except Exception as e:  # reported in the table; the other units go on
        return Result(error=_one_line(e))


def profile_hand_written(name: str, evaluate: bool) -> Result:
    from profile_cases import HAND_WRITTEN

    _, source_file, factory = HAND_WRITTEN[name]
    try:
        fn, args = factory()
        return Result(count(fn, args, source_file, evaluate))
    except Exception as e:
        return Result(error=_one_line(e))


def _one_line(e: Exception) -> str:
    text = " ".join(str(e).split())
    return f"{type(e).__name__}: {text[:400]}"
