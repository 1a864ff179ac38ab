#!/usr/bin/env python3
"""Try every pending issue-3 kernel with the current compiler; print one status line each.

    .venv/bin/python tests/e2e/pending/try_pending.py                 # all pending kernels
    .venv/bin/python tests/e2e/pending/try_pending.py softmax row_sum # some
    .venv/bin/python tests/e2e/pending/try_pending.py -v --quick      # every failure; first config only

For each kernel: compile it (no config, then each config of references_pending.py); import the
modules; run every call of its shapes (the `.shapes` sidecar plus extra shapes; calls over
MAX_INTERPRET_ELEMENTS are only lowered) in Pallas's interpreter against the numpy reference;
lower every call for TPU (jax.export inside the abstract TPU mesh). The statuses:

    compile error   helionc failed (the first error line is shown)
    import error    the generated module does not import
    run error       a call raised (shape, dtype or tracing errors)
    wrong           a call ran but its result differs from the reference
    lowering fails  numerics pass but a call does not lower for TPU
    ok              everything passes with every config: ready to move to samples/

The compiler is $HELIONC, else build/src/driver/helionc. This script is not a pytest module:
`pytest tests/e2e` never runs the pending kernels.
"""

from __future__ import annotations

import argparse
import os
import pathlib
import subprocess
import sys
import tempfile
import time
import traceback

os.environ.setdefault("JAX_PLATFORMS", "cpu")

_HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(_HERE.parent))
sys.path.insert(0, str(_HERE))

import jax  # noqa: E402
import jax.numpy as jnp  # noqa: E402

from conftest import config_yaml, import_module  # noqa: E402
from e2e_support import (  # noqa: E402
    PROJECT_ROOT,
    Call,
    assert_matches,
    helionc_path,
    interpretable,
    kernels_in,
    lower_for_tpu,
    make_inputs,
    seed_for,
)
from references_pending import PENDING, PENDING_DIR, pending_calls_of  # noqa: E402

STATUS_ORDER = ("compile error", "import error", "run error", "wrong", "lowering fails", "ok")


class Outcome(Exception):
    def __init__(self, status: str, detail: str):
        super().__init__(f"{status}: {detail}")
        self.status = status
        self.detail = detail


def first_line(text: str, limit: int = 300) -> str:
    lines = [ln for ln in str(text).strip().splitlines() if ln.strip()]
    line = next((ln for ln in lines if "error" in ln.lower()), lines[0] if lines else "")
    return line if len(line) <= limit else line[: limit - 3] + "..."


def compile_kernel(binary, workdir, spec, config_id):
    out = workdir / f"{spec.name}__{config_id or 'default'}_pallas.py"
    args = [str(PENDING_DIR / f"{spec.name}.py"), "-o", str(out)]
    if config_id is not None:
        cfg = workdir / f"{spec.name}__{config_id}.yaml"
        variant = spec.variants()[config_id]
        cfg.write_text(config_yaml(spec.kernel, variant.block_sizes, variant.loop_types))
        args += ["--config", str(cfg)]
    proc = subprocess.run([str(binary), *args], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        raise Outcome("compile error", first_line(proc.stderr + proc.stdout))
    try:
        module = import_module(out, f"pending_{spec.name}_{config_id or 'default'}")
    except Exception as e:  # noqa: BLE001
        raise Outcome("import error", f"{type(e).__name__}: {first_line(str(e))}") from e
    fn = getattr(module, spec.kernel, None)
    if not callable(fn):
        raise Outcome("import error", f"no public function {spec.kernel}")
    return fn


class Case:
    """One call: positional tensors in the kernel's parameter order, scalars by keyword."""

    def __init__(self, spec, kernel, call: Call, scalars: dict):
        self.spec, self.call, self.scalars = spec, call, scalars
        by_name = {t.name: t for t in call.tensors}
        self.tensors = [by_name[p] for p in kernel.params if p in by_name]
        self.all_scalars = {**{k: v for k, v in kernel.defaults.items() if k not in by_name}, **scalars}
        self.inputs = make_inputs(call, spec.inputs, seed_for(spec.name, call))

    def run_and_check(self, fn) -> None:
        args = [jnp.asarray(self.inputs[t.name]) for t in self.tensors]
        try:
            result = fn(*args, **self.scalars, interpret=True)
        except Exception as e:  # noqa: BLE001
            raise Outcome("run error", f"{type(e).__name__}: {first_line(str(e))}") from e
        expected = self.spec.reference(**self.inputs, **self.all_scalars)
        try:
            if len(expected) == 1:
                assert not isinstance(result, (tuple, list)), f"returned a {type(result).__name__}, not one array"
                result = (result,)
            else:
                assert isinstance(result, tuple) and len(result) == len(expected), (
                    f"returned {type(result).__name__} of {len(result) if isinstance(result, (tuple, list)) else 1}, "
                    f"expected a tuple of {len(expected)}"
                )
            for i, (got, want) in enumerate(zip(result, expected)):
                assert_matches(got, want, f"output {i}", self.spec.tolerance)
        except AssertionError as e:
            raise Outcome("wrong", " ".join(str(e).split())[:300]) from e

    def lower(self, fn) -> None:
        structs = [jax.ShapeDtypeStruct(t.shape, t.dtype) for t in self.tensors]
        try:
            text = lower_for_tpu(lambda *a: fn(*a, **self.scalars, interpret=False), *structs)
        except Exception as e:  # noqa: BLE001
            raise Outcome("lowering fails", f"{type(e).__name__}: {first_line(str(e))}") from e
        if "tpu_custom_call" not in text:
            raise Outcome("lowering fails", "no tpu_custom_call in the export")


def try_kernel(binary, workdir, pending, args) -> tuple[str, str, str]:
    """(status, counts, detail) of one pending kernel."""
    spec = pending.spec
    kernel = {k.name: k for k in kernels_in(PENDING_DIR / f"{spec.name}.py")}[spec.kernel]
    config_ids = list(spec.variants())[: 1 if args.quick else None]
    calls = pending_calls_of(spec)
    if args.quick:
        calls = [c for c in calls if interpretable(c)][:3]
    failures: list[Outcome] = []
    ran = passed = lowered = lower_ok = 0
    try:
        compile_kernel(binary, workdir, spec, None)  # the built-in defaults must compile too
        fns = {cid: compile_kernel(binary, workdir, spec, cid) for cid in config_ids}
    except Outcome as o:
        return o.status, "", o.detail
    for cid, fn in fns.items():
        for i, call in enumerate(calls):
            case = Case(spec, kernel, call, spec.scalars[i % len(spec.scalars)])
            where = f"[{cid} {call}{' ' + str(case.scalars) if case.scalars else ''}]"
            if interpretable(call):
                ran += 1
                try:
                    case.run_and_check(fn)
                    passed += 1
                except Outcome as o:
                    failures.append(Outcome(o.status, f"{where} {o.detail}"))
            lowered += 1
            try:
                case.lower(fn)
                lower_ok += 1
            except Outcome as o:
                failures.append(Outcome(o.status, f"{where} {o.detail}"))
            if args.verbose and failures and failures[-1].detail.startswith(where):
                print(f"    {failures[-1]}", flush=True)
    counts = f"run {passed}/{ran}, lower {lower_ok}/{lowered}, configs {','.join(config_ids)}"
    if not failures:
        return "ok", counts, ""
    worst = min(failures, key=lambda o: STATUS_ORDER.index(o.status))
    return worst.status, counts, worst.detail


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("kernels", nargs="*", help="pending kernel names (default: all)")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failing call")
    parser.add_argument("--quick", action="store_true", help="first config and three small calls only")
    args = parser.parse_args()

    binary, _ = helionc_path()
    if not binary.is_file():
        print(f"helionc not found at {binary}; build it or set HELIONC", file=sys.stderr)
        return 2
    selected = [p for p in PENDING if not args.kernels or p.spec.name in args.kernels]
    unknown = set(args.kernels) - {p.spec.name for p in PENDING}
    if unknown:
        print(f"unknown pending kernels: {sorted(unknown)}", file=sys.stderr)
        return 2
    print(f"compiler: {binary}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="try_pending_") as tmp:
        for pending in selected:
            start = time.monotonic()
            try:
                status, counts, detail = try_kernel(binary, pathlib.Path(tmp), pending, args)
            except Exception:  # noqa: BLE001  a bug here, not in the kernel
                status, counts, detail = "harness error", "", first_line(traceback.format_exc().splitlines()[-1])
            took = time.monotonic() - start
            line = f"{pending.spec.name:22} {status:15} {counts:48} {took:6.1f}s"
            print(line + (f"\n    {detail}" if detail else ""), flush=True)
            rows.append(status)
    ok = rows.count("ok")
    print(f"{ok} of {len(rows)} pending kernels pass")
    return 0


if __name__ == "__main__":
    sys.exit(main())
