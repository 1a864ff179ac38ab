"""The runner of `helionc --autotune --search measure` (installed with helionc).

helionc writes a plan (the calls, and per call the cost model's best candidates, each compiled
to a module) and runs this script with the Python that has JAX. Per call, the module compiled
with the kernel's own default config runs once for the reference output; then every candidate
runs in a child process with a timeout: compiled (`jax.jit(...).lower(...).compile()`), run
once to warm up, then timed `runs` times (the median counts), and its output compared with the
reference (tolerances per dtype). Each candidate's status (ok, compile_error, timeout,
runtime_error, accuracy_fail) goes to the journal as one JSON line as soon as it is known, so
an interrupted run resumed with `--resume` times only what the journal lacks. At the end the
results go to `--results` for helionc, which writes the tuning YAML.

Without a TPU, JAX's CPU interpreter is timed (`interpret=True`): that tests the plumbing
only, and the output says so.

Test-only hook: HELIONC_MEASURE_TEST_ONLY_FAULTS, a JSON object mapping "<call index>/<candidate
index>" to a fault the child injects: "hang" (sleeps past its timeout), "wrong" (perturbs its
output), "compile_error" (raises before compiling), "crash" (exits while running). It lets the
tests reach every status; nothing else reads it.
"""

from __future__ import annotations

import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # also under `python -I`
import helionc_candidates as shared  # noqa: E402

# Output tolerances against the reference module, by the output's dtype: the candidates compute
# the same thing in another order (block sizes change how sums are split).
TOLERANCES = {
    "float32": (1e-4, 1e-4),
    "bfloat16": (2e-2, 2e-2),
    "float16": (5e-3, 5e-3),
}
TEST_FAULTS_ENV = "HELIONC_MEASURE_TEST_ONLY_FAULTS"


def make_inputs(call: dict, seed: int):
    import jax.numpy as jnp
    import numpy as np

    rng = np.random.default_rng(seed)
    inputs = {}
    for tensor in call["tensors"]:
        shape, dtype = tuple(tensor["shape"]), tensor["dtype"]
        if dtype.startswith("int") or dtype.startswith("uint"):
            values = rng.integers(0, 8, size=shape)
        elif dtype == "bool":
            values = rng.integers(0, 2, size=shape).astype(bool)
        else:
            values = rng.standard_normal(shape)
        inputs[tensor["name"]] = jnp.asarray(values, dtype=getattr(jnp, dtype))
    return inputs


def outputs_of(result):
    return list(result) if isinstance(result, (tuple, list)) else [result]


def device_text() -> tuple[str, bool]:
    import jax

    device = jax.devices()[0]
    if device.platform == "tpu":
        return device.device_kind, False
    return f"{device.platform} (interpret mode)", True


# ---- the child: one module, one call ------------------------------------------------------


def child(args) -> int:
    """Runs one module for one call; writes {status, times_us, detail} to args.out."""
    import jax
    import numpy as np

    plan = shared.read_plan(args.plan)
    call = plan["calls"][args.call]
    work = pathlib.Path(args.plan).parent
    fault = json.loads(os.environ.get(TEST_FAULTS_ENV, "{}")).get(f"{args.call}/{args.candidate}")
    _, interpret = device_text()
    report = {"status": "ok", "times_us": [], "detail": ""}

    def finish(status, detail=""):
        report["status"], report["detail"] = status, detail[-2000:]
        pathlib.Path(args.out).write_text(json.dumps(report))
        return 0

    try:
        if fault == "compile_error":
            raise RuntimeError("injected by " + TEST_FAULTS_ENV)
        module = shared.load_module(work / args.module)
        fn = getattr(module, plan["kernel"])
        inputs = shared.by_parameter(make_inputs(call, seed=args.call))
        jitted = jax.jit(lambda kwargs: fn(**kwargs, interpret=interpret))
        compiled = jitted.lower(inputs).compile()
    except Exception as e:  # the module's trace-time checks, Mosaic, XLA
        return finish("compile_error", f"{type(e).__name__}: {e}")
    try:
        if fault == "hang":
            time.sleep(10 * 24 * 3600)  # the parent's timeout ends this
        if fault == "crash":
            os._exit(70)
        result = outputs_of(jax.block_until_ready(compiled(inputs)))  # the warm-up run
        for _ in range(args.runs):
            start = time.perf_counter()
            jax.block_until_ready(compiled(inputs))
            report["times_us"].append((time.perf_counter() - start) * 1e6)
    except Exception as e:
        return finish("runtime_error", f"{type(e).__name__}: {e}")
    outputs = [np.asarray(o.astype("float32") if o.dtype.name == "bfloat16" else o) for o in result]
    if fault == "wrong":
        outputs = [o + 1 for o in outputs]
    if args.reference is None:
        np.savez(args.save, *outputs)
        return finish("ok")
    reference = np.load(args.reference)
    want = [reference[f"arr_{i}"] for i in range(len(reference.files))]
    if len(want) != len(outputs):
        return finish("accuracy_fail", f"{len(outputs)} outputs, the reference has {len(want)}")
    for i, (got, ref) in enumerate(zip(outputs, want)):
        rtol, atol = TOLERANCES.get(result[i].dtype.name, (0, 0))
        if got.shape != ref.shape or not np.allclose(got, ref, rtol=rtol, atol=atol, equal_nan=True):
            worst = float(np.max(np.abs(got.astype(np.float64) - ref))) if got.shape == ref.shape else None
            return finish("accuracy_fail", f"output {i} differs from the default config's "
                                           f"(largest difference {worst}, rtol {rtol}, atol {atol})")
    return finish("ok")


# ---- the parent: every call and candidate -------------------------------------------------


def run_child(args, call: int, candidate: int, module: str, reference, save) -> dict:
    out = pathlib.Path(args.plan).parent / f"result_{call}_{candidate}.json"
    command = [sys.executable, __file__, "--child", "--plan", args.plan, "--call", str(call),
               "--candidate", str(candidate), "--module", module, "--runs", str(args.runs),
               "--out", str(out)]
    command += ["--reference", str(reference)] if reference else ["--save", str(save)]
    try:
        proc = subprocess.run(command, capture_output=True, text=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        return {"status": "timeout", "times_us": [], "detail": f"over {args.timeout} s"}
    if not out.exists():
        return {"status": "runtime_error", "times_us": [],
                "detail": f"the child exited with {proc.returncode}: {proc.stderr[-2000:]}"}
    return json.loads(out.read_text())


def child_args(parser):
    parser.add_argument("--child", action="store_true")
    parser.add_argument("--call", type=int)
    parser.add_argument("--candidate", type=int)
    parser.add_argument("--module")
    parser.add_argument("--runs", type=int)
    parser.add_argument("--out")
    parser.add_argument("--reference")
    parser.add_argument("--save")


def main() -> int:
    args = shared.parse_args(__doc__.split("\n\n")[0], child_args)
    if args.child:
        return child(args)
    if shared.lacks(("jax", "numpy"), args.results, "measure", "JAX",
                    '"jax[tpu]" (on a TPU host; `jax` elsewhere)'):
        return 0
    plan = shared.read_plan(args.plan)
    args.runs, args.timeout = plan["runs"], plan["timeout_s"]
    device, interpret = device_text()
    say = shared.sayer(args.quiet, "measure")
    if interpret:
        say(f"no TPU here: timing JAX's interpreter on {device}; these times test the "
            "plumbing, not the kernel's speed on a TPU")

    journal = shared.Journal(args.journal, args.resume, {"device": device})
    work = pathlib.Path(args.plan).parent
    rows = []
    for c, call in enumerate(plan["calls"]):
        reference = work / f"reference_{c}.npz"
        base = run_child(args, c, -1, call["baseline"], None, reference)
        if base["status"] != "ok":
            say(f"{call['call']}: the default config's module failed "
                f"({base['status']}: {base['detail']}); candidates are not checked against it")
        for k, candidate in enumerate(call["candidates"]):
            sha256 = shared.module_sha256(work, candidate["module"])
            record = journal.get(call["call"], candidate["config"], sha256)
            if record:
                say(f"{call['call']} candidate {k}: {record['status']} (journal)")
            else:
                result = (run_child(args, c, k, candidate["module"], reference, None)
                          if base["status"] == "ok"
                          else {"status": "runtime_error", "times_us": [],
                                "detail": "no reference output"})
                times = result["times_us"]
                record = journal.add({"call": call["call"], "rank": k, "config": candidate["config"],
                                      "module_sha256": sha256, "status": result["status"],
                                      "time_us": statistics.median(times) if times else None,
                                      "runs_us": times, "predicted_us": candidate["predicted_us"],
                                      "detail": result["detail"]})
                say(f"{call['call']} candidate {k}: {record['status']}"
                    + (f" {record['time_us']:.1f} us" if record["time_us"] is not None else ""))
            time_us = record["time_us"] if record["status"] == "ok" else None
            rows.append((c, k, record["status"], time_us, record["detail"]))
    journal.close()
    shared.write_results(args.results, {"device": device}, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
