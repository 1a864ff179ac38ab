#!/usr/bin/env python3
"""Whether the kernels of Helion's tests compile for a TPU on the calls their tests make.

    .venv/bin/python scripts/corpus_tpu.py GIT_DIR CALLS_DIR [--only test/test_pallas.py]
        [--generation tpu-v7x] [--oracle] [--jobs 2] [--out RESULTS.jsonl] [--keep DIR]

GIT_DIR is a git directory of pytorch/helion (as for scripts/corpus.py), CALLS_DIR what
scripts/corpus_calls.py captured from the same commit's tests. Each kernel with captured calls is
written to a file of its own as scripts/corpus.py writes it and compiled with helionc twice over:

- default: the file as it is (the kernel's own `config=`, else helionc's defaults);
- test: for each config a test call ran under (the kwargs of `code_and_output`, or the kernel's
  `config=`), the same file with that config written into the kernel's decorator.

Each call is then compiled for one chip of `--generation` by the real TPU compiler (libtpu; no
TPU needed: tests/e2e/e2e_support.py's compile_for_tpu) on its arguments' shapes and dtypes
(int64 as int32, float64 as float32, as helionc's modules take them) and its Python values.
A call ends as `compiled`, `helionc` (helionc refuses the kernel or the config), `trace` (the
module raises while JAX traces or lowers it: its own checks, or Pallas's), `tpu` (Mosaic or
the TPU backend refuses it), `crash` or `timeout`. With --oracle, each call whose values were
captured also runs in Pallas's interpreter under the config its test used, and its results are
compared with Helion's eager ones (`match`, `mismatch`, `error`).

A kernel counts as compiling (per mode) when every call of it does; the summary gives kernels
and calls per mode and lists the others with their first message.
"""

from __future__ import annotations

import argparse
import ast
import collections
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "tests", "e2e"))

from corpus import dotted, first_line, git, is_kernel, kernel_files  # noqa: E402

# Helion's singular config keys (ConfigSpec.normalize): `block_size=64` is `block_sizes=[64]`.
ALIASES = {"block_size": "block_sizes", "loop_order": "loop_orders"}
DTYPES = {"int64": "int32", "float64": "float32", "uint64": "uint32"}


def normalized(config: dict) -> dict:
    out = {}
    for key, value in config.items():
        if key in ALIASES:
            key = ALIASES[key]
            value = value if key == "block_sizes" and isinstance(value, list) else [value]
        out[key] = value
    return out


def with_config(source: str, line: int, config: dict) -> str:
    """`source` with the kernel whose first decorator stands at `line` decorated by
    `helion.kernel(..., config=helion.Config(**config))` (its own config= or configs= dropped);
    the lines keep their numbers."""
    tree = ast.parse(source)
    kernel = next(node for node in ast.walk(tree) if is_kernel(node) and first_line(node) == line)
    decorator = next(d for d in kernel.decorator_list
                     if dotted(d).rpartition(".")[2] in ("kernel", "jit", "aot_kernel"))
    call = decorator if isinstance(decorator, ast.Call) else ast.Call(decorator, [], [])
    keywords = [k for k in call.keywords if k.arg not in ("config", "configs")]
    given = [ast.keyword(key, ast.parse(repr(value), mode="eval").body)
             for key, value in normalized(config).items()]
    keywords.append(ast.keyword("config", ast.Call(ast.parse("helion.Config", mode="eval").body,
                                                   [], given)))
    text = "@" + ast.unparse(ast.Call(call.func, call.args, keywords))
    lines = source.splitlines(keepends=True)
    indent = re.match(r"\s*", lines[decorator.lineno - 1]).group(0)
    lines[decorator.lineno - 1:decorator.end_lineno] = (
        [indent + text + "\n"] + ["\n"] * (decorator.end_lineno - decorator.lineno))
    return "".join(lines)


def first_error(stderr: str) -> str:
    match = re.search(r"^[^\n:]*:\d+:\d+: error: (.*)$", stderr, re.M)
    return (match.group(1) if match else (stderr.strip().splitlines() or ["?"])[-1])[:300]


def compile_module(helionc: str, path: str, kernel: str) -> str | None:
    """helionc's refusal, or None when the module was written to PATH.out.py."""
    result = subprocess.run([helionc, path, "-o", path + ".out.py", "--color", "never",
                             "--kernel", kernel], capture_output=True, text=True, timeout=120)
    return None if result.returncode == 0 else first_error(result.stderr)


def config_key(call: dict) -> str | None:
    return json.dumps(call["config"], sort_keys=True) if call.get("config") else None


def distinct(calls: list[dict]) -> list[dict]:
    """The calls of one kernel with `modes` set: each argument list once under the default
    config and each (arguments, config) pair once under its test's config; calls the tests
    expect to work come first, then those whose results were captured (the oracle's)."""
    seen: set = set()
    kept = []
    order = lambda c: (bool(c.get("expects_error")), "result" not in c)
    for call in sorted(calls, key=order):
        args = json.dumps(call["args"], sort_keys=True)
        keys = {"default": (args,)}
        if config_key(call):
            keys["test"] = (args, config_key(call))
        modes = [mode for mode, key in keys.items() if key not in seen]
        seen.update(keys.values())
        if modes:
            kept.append(dict(call, modes=modes))
    return kept


def prepare(args, tmp: str) -> list[dict]:
    """One job a kernel: its module files (default and per test config) and its calls."""
    calls = collections.defaultdict(list)
    with open(os.path.join(args.calls_dir, "calls.jsonl")) as lines:
        for text in lines:
            call = json.loads(text)
            if call["file"].endswith(".py") and (not args.only or args.only in call["file"]):
                calls[(call["file"], call["line"])].append(call)
    calls = {key: distinct(found) for key, found in calls.items()}
    jobs = []
    for path in sorted({file for file, _ in calls}):
        source = git(args.git_dir, "show", f"{args.rev}:{path}")
        for name, line, text in kernel_files(source):
            if (path, line) not in calls:
                continue
            stem = os.path.join(tmp, f"{path.replace('/', '_')[:-3]}__{line}_{name}")
            modules = {"default": (stem + ".py", text)}
            for call in calls[(path, line)]:
                key = config_key(call)
                if key and key not in modules:
                    configured = with_config(source, line, call["config"])
                    modules[key] = (f"{stem}__config{len(modules)}.py",
                                    next(t for _, l, t in kernel_files(configured) if l == line))
            written = {}
            for key, (file, file_text) in modules.items():
                with open(file, "w") as out:
                    out.write(file_text)
                written[key] = file
            jobs.append({"path": path, "line": line, "kernel": name, "modules": written,
                         "calls": calls[(path, line)]})
    return jobs


def build(job: dict, helionc: str) -> dict:
    job["refused"] = {key: compile_module(helionc, file, job["kernel"])
                      for key, file in job["modules"].items()}
    return job


def run_shard(jobs: list[dict], shard: int, args, tmp: str) -> list[dict]:
    """Runs the worker over `jobs` in a process of its own (libtpu may abort one): where it
    stops early, the calls of the kernel it was on end as `crash` (or `timeout`) and a new
    worker takes the kernels after it."""
    rows: list[dict] = []
    while jobs:
        job_file = os.path.join(tmp, f"shard_{shard}.json")
        out_file = job_file + ".out"
        with open(job_file, "w") as out:
            json.dump(jobs, out)
        if os.path.exists(out_file):
            os.remove(out_file)
        command = [sys.executable, os.path.abspath(__file__), "--worker", job_file, out_file,
                   "--generation", args.generation, "--calls-dir", args.calls_dir,
                   "--timeout", str(args.timeout)]
        if args.oracle:
            command.append("--oracle")
        status, message = None, ""
        try:
            result = subprocess.run(command, capture_output=True, text=True,
                                    timeout=args.timeout * (len(jobs) + 1))
            if result.returncode != 0:
                message = (result.stderr.strip().splitlines() or ["?"])[-1][:300]
                status = "timeout" if message.startswith("TimeoutError") else "crash"
        except subprocess.TimeoutExpired:
            status, message = "timeout", "the worker ran out of time"
        started = 0
        if os.path.exists(out_file):
            with open(out_file) as lines:
                for text in lines:
                    row = json.loads(text)
                    if "started" in row:
                        started = row["started"]
                    else:
                        rows.append(row)
        if status is None:
            break
        # The kernel the worker was on: its calls that have no row get the worker's end.
        job = jobs[started]
        seen = {(r["call"], r["mode"]) for r in rows}
        for call in job["calls"]:
            for mode in modes(call):
                if (call["id"], mode) not in seen:
                    rows.append(result_row(job, call, mode, status, message))
        jobs = jobs[started + 1:]
    return rows


def modes(call: dict) -> list[str]:
    return call["modes"]


def result_row(job, call, mode, status, message="", oracle=None):
    return {"path": job["path"], "line": job["line"], "kernel": job["kernel"], "call": call["id"],
            "test": call["test"], "mode": mode, "status": status, "message": message,
            "oracle": oracle, "expects_error": bool(call.get("expects_error"))}


# ---------------------------------------------------------------------------------------------
# the worker: imports jax and libtpu


def worker(job_file: str, out_file: str, generation: str, calls_dir: str, oracle: bool,
           timeout: int) -> int:
    with open(job_file) as source:
        jobs = json.load(source)

    def on_alarm(signum, frame):
        raise TimeoutError(f"over {timeout} s")

    signal.signal(signal.SIGALRM, on_alarm)
    with open(out_file, "a") as out:
        for index, job in enumerate(jobs):
            out.write(json.dumps({"started": index}) + "\n")
            out.flush()
            signal.alarm(timeout)
            try:
                run_kernel(job, out, generation, calls_dir, oracle)
            finally:
                signal.alarm(0)
    return 0


def run_kernel(job, out, generation, calls_dir, oracle):
    """The rows of one kernel's calls, written to `out` as they are made."""
    import importlib.util

    import jax
    import numpy as np

    from e2e_support import compile_for_tpu

    modules = {}

    def module(key):
        if key not in modules:
            spec = importlib.util.spec_from_file_location(f"corpus_{len(modules)}",
                                                          job["modules"][key] + ".out.py")
            loaded = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(loaded)
            modules[key] = loaded
        return modules[key]

    def public(loaded):
        fn = getattr(loaded, job["kernel"], None)
        return fn if callable(fn) else getattr(loaded, job["kernel"] + "_")

    def dtype(name):
        return np.dtype(getattr(jax.numpy, DTYPES.get(name, name)))

    def abstract(arg):
        if "shape" in arg:
            return jax.ShapeDtypeStruct(tuple(arg["shape"]), dtype(arg["dtype"]))
        if "sequence" in arg:
            items = [abstract(a) for a in arg["sequence"]]
            return tuple(items) if arg["tuple"] else items
        if "torch_dtype" in arg:
            return getattr(jax.numpy, DTYPES.get(arg["torch_dtype"], arg["torch_dtype"]))
        if "value" in arg:
            return arg["value"]
        raise Uncaptured(f"an argument of type {arg['unsupported']}")

    def has_array(value):
        return any(isinstance(leaf, jax.ShapeDtypeStruct) for leaf in jax.tree.leaves(value))

    def split(values):
        """The arguments that hold arrays (traced), and a function of them calling the kernel."""
        traced = [i for i, v in enumerate(values) if has_array(v)]

        def call(fn, *arrays, **kwargs):
            full = list(values)
            for i, array in zip(traced, arrays):
                full[i] = array
            return fn(*full, **kwargs)

        return [values[i] for i in traced], call

    def concrete(call, values_file):
        """The captured values of the arguments, as the module takes them."""
        saved = np.load(values_file)
        values = [abstract(arg) for arg in call["args"]]

        def fill(value, key):
            if isinstance(value, jax.ShapeDtypeStruct):
                return jax.numpy.asarray(saved[key]).astype(value.dtype)
            if isinstance(value, (list, tuple)):
                filled = [fill(v, f"{key}_{i}") for i, v in enumerate(value)]
                return type(value)(filled)
            return value

        return [fill(v, f"in_{i}") for i, v in enumerate(values)], saved

    def compare(result, saved):
        leaves = [np.asarray(leaf) for leaf in jax.tree.leaves(result)]
        outs = [saved[k] for k in saved.files if k.startswith("out")]
        afters = [saved[k] for k in saved.files if k.startswith("after")]
        if len(leaves) < len(outs):
            return f"{len(leaves)} results, Helion returns {len(outs)}"
        for got, want in zip(leaves, outs):
            if not close(got, want):
                return describe_mismatch(got, want)
        rest = leaves[len(outs):]
        for got in rest:  # the updated parameters, in parameter order
            while afters and not (afters[0].shape == got.shape and close(got, afters[0])):
                afters.pop(0)
            if not afters:
                return "an updated parameter differs from Helion's"
            afters.pop(0)
        return None

    def close(got, want):
        if got.shape != want.shape:
            return False
        tolerance = 2e-2 if got.dtype.itemsize <= 2 and got.dtype.kind == "f" else 1e-3
        return np.allclose(got.astype(np.float64), want.astype(np.float64), rtol=tolerance,
                           atol=tolerance, equal_nan=True)

    def describe_mismatch(got, want):
        if got.shape != want.shape:
            return f"shape {got.shape}, Helion's {want.shape}"
        difference = np.abs(got.astype(np.float64) - want.astype(np.float64))
        return f"max difference {np.nanmax(difference):.4g}"

    for call in job["calls"]:
        key = config_key(call)
        for mode in modes(call):
            module_key = key if mode == "test" else "default"
            refused = job["refused"][module_key]
            if refused:
                row = result_row(job, call, mode, "helionc", refused)
            else:
                try:
                    loaded = module(module_key)
                except Exception as error:  # noqa: BLE001 - a module that does not import
                    loaded = error
                row = (result_row(job, call, mode, "trace", f"import: {loaded}"[:300])
                       if isinstance(loaded, Exception) else
                       tpu_compile(job, call, mode, loaded, public, abstract, split,
                                   compile_for_tpu, generation))
            # Helion's own results: a call that ran to the end in eager mode.
            if oracle and "result" in call and not refused and (mode == "test" or not key):
                values_file = os.path.join(calls_dir, "values", call["id"] + ".npz")
                try:
                    arrays, saved = concrete(call, values_file)
                    result = public(module(module_key))(*arrays, interpret=True)
                    mismatch = compare(result, saved)
                    row["oracle"] = "match" if mismatch is None else "mismatch"
                    row["oracle_message"] = mismatch or ""
                except Exception as error:  # noqa: BLE001 - reported per call
                    row["oracle"] = "error"
                    row["oracle_message"] = f"{type(error).__name__}: {error}"[:300]
            out.write(json.dumps(row) + "\n")
            out.flush()


class Uncaptured(Exception):
    """An argument the capture could not describe (a callable): the call is not measured."""


def tpu_compile(job, call, mode, loaded, public, abstract, split, compile_for_tpu, generation):
    try:
        values = [abstract(arg) for arg in call["args"]]
        arrays, invoke = split(values)
        fn = public(loaded)
    except Uncaptured as error:
        return result_row(job, call, mode, "uncaptured", str(error))
    except Exception as error:  # noqa: BLE001
        return result_row(job, call, mode, "trace", f"{type(error).__name__}: {error}"[:300])
    stage = "trace"
    try:
        import jax

        from e2e_support import tpu_device, tpu_tracing

        device = tpu_device(generation)
        sharding = jax.sharding.SingleDeviceSharding(device)
        placed = jax.tree.map(
            lambda a: jax.ShapeDtypeStruct(a.shape, a.dtype, sharding=sharding), arrays)
        with tpu_tracing(device.device_kind):
            lowered = jax.jit(lambda *a: invoke(fn, *a, interpret=False)).lower(*placed)
            stage = "tpu"
            lowered.compile()
    except Exception as error:  # noqa: BLE001 - the refusal is the result
        text = f"{type(error).__name__}: {error}"
        return result_row(job, call, mode, stage, refusal_line(text))
    return result_row(job, call, mode, "compiled")


def refusal_line(text: str) -> str:
    """The line of a refusal that says why (Mosaic's message sits among traceback lines)."""
    for pattern in (r"error: [^\n]*", r"(?:Ran out of memory|CompileTimeScopedVmemOom)[^\n]*",
                    r"(?:ValueError|TypeError|NotImplementedError|Mosaic[A-Za-z]*Error)[^\n]*"):
        match = re.search(pattern, text)
        if match:
            return match.group(0)[:300]
    return text.strip().splitlines()[0][:300] if text.strip() else "?"


# ---------------------------------------------------------------------------------------------


def summary(all_rows: list[dict], generation: str) -> None:
    """Kernels and calls per mode, over the calls the tests expect to work and whose arguments
    were captured; then those the tests expect to fail, and the rest."""
    rows = [r for r in all_rows if not r["expects_error"] and r["status"] != "uncaptured"]
    by_kernel = collections.defaultdict(list)
    for row in rows:
        by_kernel[(row["path"], row["line"], row["kernel"])].append(row)
    for mode in ("default", "test"):
        kernels = {k: [r for r in v if r["mode"] == mode] for k, v in by_kernel.items()}
        kernels = {k: v for k, v in kernels.items() if v}
        ok = [k for k, v in kernels.items() if all(r["status"] == "compiled" for r in v)]
        calls = [r for v in kernels.values() for r in v]
        good = sum(r["status"] == "compiled" for r in calls)
        statuses = collections.Counter(r["status"] for r in calls)
        print(f"{mode} configs: {len(ok)}/{len(kernels)} kernels compile for {generation} on "
              f"every captured call ({good}/{len(calls)} calls; "
              + ", ".join(f"{s} {n}" for s, n in statuses.most_common()) + ")")
    oracle = collections.Counter(r["oracle"] for r in rows if r.get("oracle"))
    if oracle:
        print("oracle (interpret mode against Helion's eager results): "
              + ", ".join(f"{s} {n}" for s, n in oracle.most_common()))
    expected = [r for r in all_rows if r["expects_error"]]
    if expected:
        print(f"calls the tests expect to fail ({len(expected)}): " + ", ".join(
            f"{s} {n}" for s, n in collections.Counter(r["status"] for r in expected).most_common()))
    uncaptured = sorted({f"{r['path']}:{r['line']} {r['kernel']}" for r in all_rows
                         if r["status"] == "uncaptured"})
    if uncaptured:
        print(f"not measured (an argument the capture cannot describe): {', '.join(uncaptured)}")
    print("kernels not compiling on every call (mode: status, first message):")
    for (path, line, kernel), kernel_rows in sorted(by_kernel.items()):
        for row in kernel_rows:
            if row["status"] != "compiled":
                print(f"  {path}:{line} {kernel} [{row['mode']}] {row['status']}: {row['message']}")
                break
    for (path, line, kernel), kernel_rows in sorted(by_kernel.items()):
        for row in kernel_rows:
            if row.get("oracle") in ("mismatch", "error"):
                print(f"  {path}:{line} {kernel} oracle {row['oracle']}: "
                      f"{row.get('oracle_message', '')}")
                break


def main() -> int:
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        parser = argparse.ArgumentParser()
        parser.add_argument("--worker", nargs=2)
        parser.add_argument("--generation")
        parser.add_argument("--calls-dir")
        parser.add_argument("--oracle", action="store_true")
        parser.add_argument("--timeout", type=int)
        args = parser.parse_args()
        return worker(*args.worker, args.generation, args.calls_dir, args.oracle, args.timeout)

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("git_dir")
    parser.add_argument("calls_dir")
    parser.add_argument("--helionc", default=os.environ.get("HELIONC", "build/src/driver/helionc"))
    parser.add_argument("--rev", default="HEAD")
    parser.add_argument("--only", default="test/test_pallas.py",
                        help="kernels of files whose path contains this ('' for all)")
    parser.add_argument("--kernel", help="only kernels of this name")
    parser.add_argument("--generation", default="tpu-v7x")
    parser.add_argument("--oracle", action="store_true", help="also check results (interpret)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=int, default=300, help="seconds per kernel")
    parser.add_argument("--out", help="write one JSON line per call and mode here")
    parser.add_argument("--keep", help="write kernel files and modules here (a new folder)")
    args = parser.parse_args()

    if args.keep:
        os.makedirs(args.keep)
    with tempfile.TemporaryDirectory() as scratch:
        tmp = args.keep or scratch
        jobs = [job for job in prepare(args, tmp) if not args.kernel or job["kernel"] == args.kernel]
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            jobs = list(pool.map(lambda job: build(job, args.helionc), jobs))
            shards = [jobs[i::args.jobs] for i in range(args.jobs)]
            rows = [row for done in pool.map(lambda i: run_shard(shards[i], i, args, tmp),
                                             range(args.jobs))
                    for row in done]
    if args.out:
        with open(args.out, "w") as out:
            for row in rows:
                out.write(json.dumps(row) + "\n")
    summary(rows, args.generation)
    return 0


if __name__ == "__main__":
    sys.exit(main())
