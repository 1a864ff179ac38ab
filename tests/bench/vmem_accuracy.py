#!/usr/bin/env python3
"""helionc's VMEM figure per launch against what the TPU compiler allocates.

For every sample x config (x loop strategies) x call of its expectation file
(samples/<name>.expect.py), and every sample's default config on its `.shapes` calls, per
generation: the module helionc writes for that generation is traced for the call, and the VMEM
bytes its trace-time check (`_fit_vmem`, the accounting of `--emit report`) computes for each
launch are compared with the scoped VMEM that libtpu's compiler allocates for that launch's
Mosaic kernel.

The compiler's figure is read from the compiled executable's HLO text: each `tpu_custom_call`
carries `"used_scoped_memory_configs":[{"memory_space":"1",...,"size":"N"}]`, the bytes of
scoped VMEM (memory space 1) the TPU backend allocated for the kernel (windows, scratch,
Mosaic's internal scratch, register spills). It is exact and costs nothing beyond the compile.
A kernel the compiler refuses for VMEM is compiled again with `vmem_limit_bytes` raised to the
target's physical VMEM, so that its figure is read the same way; one that does not fit even
then gives the "Used X of Y" figure of the refusal (MiB with two decimals).

    tests/bench/vmem_accuracy.py [--generation tpu-v7x --generation tpu-v5e] [--sample NAME ...]
        [--defaults-only] [-j N] [--json OUT] [--markdown]

Prints one row per launch (case, launch, helionc bytes, compiler bytes, ratio) and the ratio
distribution per generation; `--json` writes the rows for other benchmarks. Needs jax[tpu]
(libtpu), no TPU. Importable: `measure(generation, sample, config_id)` returns the rows of one
module.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import dataclasses
import json
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import libtpu_flags  # noqa: E402  (before jax: every operand in HBM unless --msa)

libtpu_flags.operands_in_hbm(sys.argv)
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "e2e"))

import jax  # noqa: E402

import e2e_support as es  # noqa: E402
from references import SAMPLES, calls_of  # noqa: E402

GENERATIONS = ("tpu-v7x", "tpu-v5e")
# Physical VMEM per core (configs/targets/*.yaml), the limit of the second compile of a refusal.
PHYSICAL_VMEM = {"tpu-v7x": 64 << 20, "tpu-v6e": 128 << 20, "tpu-v5e": 128 << 20,
                 "tpu-v5p": 64 << 20, "tpu-v4": 16 << 20}
VMEM_SPACE = "1"  # memory_space of scoped VMEM in used_scoped_memory_configs


@dataclasses.dataclass
class Row:
    generation: str
    case: str            # <sample>-<config>-<call>
    launch: str          # the pallas_call's name
    helionc: int | None  # the module's figure for the launch as traced (None: no figure)
    compiler: int | None  # the compiler's scoped VMEM bytes (None: refused for another reason)
    exact: bool = True   # False: read from an out-of-memory message (two decimals of MiB)
    status: str = "ok"   # ok | vmem_refused | refused | trace_error
    message: str = ""
    limit: int | None = None  # the vmem_limit_bytes the module passed

    @property
    def ratio(self) -> float | None:
        if not self.helionc or not self.compiler:
            return None
        return self.helionc / self.compiler


# ---------------------------------------------------------------------------------------------
# the compiler's figure


def compiler_vmem(hlo_text: str) -> dict[str, int]:
    """Scoped VMEM bytes per pallas_call name in a compiled executable's HLO text."""
    found: dict[str, int] = {}
    for line in hlo_text.splitlines():
        if 'custom_call_target="tpu_custom_call"' not in line:
            continue
        name = re.search(r'op_name="(?:[^"]*/)?([^"/]+)/pallas_call', line)
        used = re.search(r'"used_scoped_memory_configs":\[([^\]]*)\]', line)
        if not name or not used:
            continue
        size = sum(int(m.group(2)) for m in re.finditer(
            r'\{"memory_space":"(\d+)","offset":"\d+","size":"(\d+)"\}', used.group(1))
            if m.group(1) == VMEM_SPACE)
        found[name.group(1)] = max(found.get(name.group(1), 0), size)
    return found


_MIB = r"([\d.]+)([KMG]?)"


def _bytes(number: str, unit: str) -> int:
    return int(float(number) * {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[unit])


def refused_vmem(message: str) -> tuple[str, int] | None:
    """(pallas_call name, bytes) of a VMEM refusal, from the compiler's message."""
    name = re.search(r'op_name="(?:[^"]*/)?([^"/]+)/pallas_call', message)
    scoped = re.search(rf"Scoped allocation with size {_MIB} and limit", message)
    used = re.search(rf"Used {_MIB} of {_MIB} vmem", message)
    if scoped:
        return (name.group(1) if name else "?", _bytes(*scoped.groups()))
    if used:
        return (name.group(1) if name else "?", _bytes(used.group(1), used.group(2)))
    return None


class _RaisedLimit:
    """`pltpu` as a module sees it, with every kernel's vmem_limit_bytes set to `limit`."""

    def __init__(self, pltpu, limit: int):
        self._pltpu = pltpu
        self._limit = limit

    def __getattr__(self, name):
        return getattr(self._pltpu, name)

    def CompilerParams(self, **params):  # noqa: N802 (pltpu's name)
        params["vmem_limit_bytes"] = self._limit
        return self._pltpu.CompilerParams(**params)


# ---------------------------------------------------------------------------------------------
# helionc's figure


class Recorder:
    """Hooks a module's `_fit_vmem` and `_pallas_call`: per launch traced, its name, the VMEM
    bytes the trace-time check computed for the strategies and blocks that run, and the
    vmem_limit_bytes passed."""

    def __init__(self, module):
        self.module = module
        self.fit = module.__dict__.get("_fit_vmem")
        self.call = module._pallas_call
        self.pending = None
        self.launches: dict[str, tuple[int | None, int | None]] = {}
        if self.fit:
            module._fit_vmem = self._fit
        module._pallas_call = self._pallas_call

    def _fit(self, config, launch, first, blocks, needs, *rest):
        changed = self.fit(config, launch, first, blocks, needs, *rest)
        by_strategy = needs(*blocks(changed))
        count = len(next(iter(by_strategy)))
        chosen = tuple(changed.get("pallas_loop_type", ()))[first:first + count]
        self.pending = by_strategy[chosen]
        return changed

    def _pallas_call(self, kernel, **params):
        compiler_params = params.get("compiler_params")
        limit = getattr(compiler_params, "vmem_limit_bytes", None)
        self.launches[params["name"]] = (self.pending, limit)
        self.pending = None
        return self.call(kernel, **params)


# ---------------------------------------------------------------------------------------------
# cases


def helionc_binary() -> pathlib.Path:
    return es.helionc_path()[0]


def module_for(workdir: pathlib.Path, generation: str, spec, config_id: str | None):
    """Compile samples/<spec.name>.py for `generation` with the variant `config_id` (None: the
    built-in default) and import it."""
    tag = f"{spec.name}__{config_id or 'default'}__{generation}"
    out = workdir / f"{tag}_pallas.py"
    args = [str(helionc_binary()), f"samples/{spec.name}.py", "--target", generation, "-o", str(out)]
    if config_id is not None:
        variant = spec.variants()[config_id]
        text = f"schema_version: 1\nkernel: {spec.kernel}\ndefault:\n"
        text += f"  block_sizes: [{', '.join(map(str, variant.block_sizes))}]\n"
        if variant.loop_types:
            text += f"  pallas_loop_type: [{', '.join(variant.loop_types)}]\n"
        config = workdir / f"{tag}.yaml"
        config.write_text(text)
        args += ["--config", str(config)]
    proc = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr.strip().splitlines()[0] if proc.stderr.strip() else "helionc failed")
    import importlib.util

    loader = importlib.util.spec_from_file_location(f"vmem_accuracy.{tag}", out)
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


def arguments(spec, call, scalars: dict):
    """The call's ShapeDtypeStructs in the kernel's parameter order, and its scalars."""
    kernel = {k.name: k for k in es.kernels_in(es.SAMPLES_DIR / f"{spec.name}.py")}[spec.kernel]
    given = {es.param_of(t.name) for t in call.tensors}
    params = [p for p in kernel.params if p in given]
    needed = [p for p in kernel.params if p not in given and p not in kernel.defaults and p not in scalars]
    scalars = {**{p: spec.scalars[0][p] for p in needed if p in spec.scalars[0]}, **scalars}
    structs = es.group_packs(kernel, call, {t.name: jax.ShapeDtypeStruct(t.shape, t.dtype) for t in call.tensors})
    return [structs[p] for p in params], scalars


def cases_of(spec, defaults_only: bool = False):
    """(config_id, call, scalars): every variant on every call (the lowering tests' matrix), and
    the default config (None) on the sample's `.shapes` calls."""
    calls = calls_of(spec)
    out = []
    if not defaults_only:
        for config_id in spec.variants():
            for i, call in enumerate(calls):
                out.append((config_id, call, spec.scalars[i % len(spec.scalars)]))
    for call in es.read_shapes_file(es.SAMPLES_DIR / f"{spec.name}.shapes"):
        out.append((None, call, {}))
    return out


def _compile(fn, structs, generation):
    compiled = es.compile_for_tpu(fn, *structs, generation=generation)
    return compiled.compiled.as_text()


def measure_call(module, spec, call, scalars, generation: str, case: str) -> list[Row]:
    """The rows of one call: per launch, helionc's figure and the compiler's."""
    fn = getattr(module, spec.kernel)
    structs, scalars = arguments(spec, call, scalars)
    recorder = Recorder(module)
    run = lambda *a: fn(*a, **scalars, interpret=False)  # noqa: E731
    try:
        text = _compile(run, structs, generation)
        figures, exact, status, message = compiler_vmem(text), True, "ok", ""
    except Exception as e:  # a refusal, or an error while tracing
        message = str(e)
        refusal = refused_vmem(message)
        if not recorder.launches:
            return [Row(generation, case, "-", None, None, status="trace_error",
                        message=message.splitlines()[0][:300] if message else type(e).__name__)]
        if refusal is None:
            return [Row(generation, case, name, need, None, status="refused", limit=limit,
                        message=message.splitlines()[0][:300])
                    for name, (need, limit) in recorder.launches.items()]
        status = "vmem_refused"
        pltpu = module.pltpu
        module.pltpu = _RaisedLimit(pltpu, PHYSICAL_VMEM[generation])
        try:
            figures, exact = compiler_vmem(_compile(run, structs, generation)), True
        except Exception as again:
            figures, exact = {}, False
            refusal = refused_vmem(str(again)) or refusal
            figures[refusal[0]] = refusal[1]
        finally:
            module.pltpu = pltpu
        message = next((line for line in message.splitlines() if "vmem" in line.lower()), "")[:300]
    finally:
        module._pallas_call = recorder.call
        if recorder.fit:
            module._fit_vmem = recorder.fit
    rows = []
    for name, (need, limit) in recorder.launches.items():
        rows.append(Row(generation, case, name, need, figures.get(name), exact, status, message, limit))
    return rows


def measure(generation: str, sample: str, config_id: str | None, calls, workdir: pathlib.Path) -> list[Row]:
    """Every call of one (sample, config) module for one generation."""
    spec = next(s for s in SAMPLES if s.name == sample)
    try:
        module = module_for(workdir, generation, spec, config_id)
    except Exception as e:
        return [Row(generation, f"{sample}-{config_id or 'default'}", "-", None, None,
                    status="helionc_error", message=str(e)[:300])]
    rows = []
    for call, scalars in calls:
        case = f"{sample}-{config_id or 'default'}-{call}"
        if spec.host_values or spec.host_only:
            continue
        rows += measure_call(module, spec, call, scalars, generation, case)
    return rows


def _work(unit):
    generation, sample, config_id, calls, workdir = unit
    return measure(generation, sample, config_id, calls, pathlib.Path(workdir))


# ---------------------------------------------------------------------------------------------
# the report


def quantiles(values: list[float]) -> dict[str, float]:
    values = sorted(values)
    if not values:
        return {}
    at = lambda q: values[min(len(values) - 1, int(q * (len(values) - 1) + 0.5))]  # noqa: E731
    return {"min": values[0], "p10": at(0.1), "median": statistics.median(values),
            "p90": at(0.9), "max": values[-1]}


def summarize(rows: list[Row]) -> dict:
    """Per generation: launches compared, below the compiler's figure, the ratio distribution."""
    out = {}
    for generation in sorted({r.generation for r in rows}):
        mine = [r for r in rows if r.generation == generation]
        ratios = [r.ratio for r in mine if r.ratio is not None]
        out[generation] = {
            "launches": len(mine),
            "compared": len(ratios),
            "below": sum(1 for x in ratios if x < 1),
            "no_figure": sum(1 for r in mine if r.helionc is None and r.status in ("ok", "vmem_refused")),
            "vmem_refused": sum(1 for r in mine if r.status == "vmem_refused"),
            "refused_other": sum(1 for r in mine if r.status == "refused"),
            "errors": sum(1 for r in mine if r.status in ("trace_error", "helionc_error")),
            "ratio": quantiles(ratios),
            "histogram": histogram(ratios),
        }
    return out


BUCKETS = (0.9, 1.0, 1.05, 1.1, 1.25, 1.5, 2.0, 4.0)


def histogram(ratios: list[float]) -> dict[str, int]:
    counts = {}
    edges = (0.0, *BUCKETS, float("inf"))
    for lo, hi in zip(edges, edges[1:]):
        counts[f"[{lo:g}, {hi:g})"] = sum(1 for x in ratios if lo <= x < hi)
    return counts


def mib(n: int | None) -> str:
    return "-" if n is None else f"{n / (1 << 20):.2f}"


def print_table(rows: list[Row], markdown: bool, worst: int) -> None:
    sep = " | " if markdown else "  "
    head = ["generation", "case", "launch", "helionc MiB", "compiler MiB", "ratio", "status"]
    if markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
    else:
        print(sep.join(head))
    shown = sorted((r for r in rows if r.ratio is not None), key=lambda r: r.ratio)
    if worst:
        shown = shown[:worst] + shown[-worst:] if len(shown) > 2 * worst else shown
    shown += [r for r in rows if r.ratio is None]
    for r in shown:
        cells = [r.generation, r.case, r.launch, mib(r.helionc),
                 mib(r.compiler) + ("" if r.exact else "~"),
                 "-" if r.ratio is None else f"{r.ratio:.3f}", r.status + (f": {r.message[:120]}" if r.message and r.status != "ok" else "")]
        print(("| " + sep.join(cells) + " |") if markdown else sep.join(cells))


def print_summary(summary: dict) -> None:
    for generation, s in summary.items():
        q = s["ratio"]
        print(f"\n{generation}: {s['compared']} launches compared of {s['launches']}; "
              f"{s['below']} below the compiler's figure; {s['no_figure']} without a figure; "
              f"{s['vmem_refused']} refused for VMEM as generated; {s['refused_other']} refused "
              f"otherwise; {s['errors']} errors")
        if q:
            print("  ratio helionc/compiler: " + ", ".join(f"{k} {v:.3f}" for k, v in q.items()))
            print("  histogram: " + ", ".join(f"{k} {v}" for k, v in s["histogram"].items()))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--generation", action="append", choices=sorted(PHYSICAL_VMEM))
    parser.add_argument("--sample", action="append", help="only these samples (repeatable)")
    parser.add_argument("--defaults-only", action="store_true", help="only the default configs")
    parser.add_argument("-j", "--jobs", type=int, default=1)
    parser.add_argument("--json", type=pathlib.Path, help="write the rows and summary here")
    parser.add_argument("--markdown", action="store_true")
    parser.add_argument("--msa", action="store_true",
                        help="leave XLA's memory-space assignment on (small operands may sit in VMEM)")
    parser.add_argument("--worst", type=int, default=0,
                        help="print only the N lowest and N highest ratios (and every row without one)")
    args = parser.parse_args(argv)
    generations = args.generation or list(GENERATIONS)
    specs = [s for s in SAMPLES if not args.sample or s.name in args.sample]
    with tempfile.TemporaryDirectory(prefix="vmem_accuracy.") as workdir:
        units = []
        for generation in generations:
            for spec in specs:
                by_config: dict = {}
                for config_id, call, scalars in cases_of(spec, args.defaults_only):
                    by_config.setdefault(config_id, []).append((call, scalars))
                for config_id, calls in by_config.items():
                    units.append((generation, spec.name, config_id, calls, workdir))
        rows: list[Row] = []
        if args.jobs > 1:
            with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
                for done in pool.map(_work, units):
                    rows += done
        else:
            for unit in units:
                rows += _work(unit)
    print_table(rows, args.markdown, args.worst)
    summary = summarize(rows)
    print_summary(summary)
    if args.json:
        args.json.write_text(json.dumps({"rows": [dataclasses.asdict(r) for r in rows],
                                         "summary": summary}, indent=1))
    below = sum(s["below"] for s in summary.values())
    return 1 if below else 0


if __name__ == "__main__":
    sys.exit(main())
