"""The runner of `helionc --autotune --search compile` (installed with helionc).

helionc writes a plan (helionc_candidates.py) with the topology of the target's generation
(`tpu7x:2x2x1`, ...) and, per call, the cost model's best candidates, each compiled to a module.
This runner compiles every candidate for one chip of that topology with JAX's TPU compiler
(libtpu, from `jax[tpu]`): the candidate is traced as on a TPU of that generation, lowered to
Mosaic, and Mosaic and the TPU backend run as on a TPU host at the kernel's first call
(`jax.jit(...).lower(...).compile()` on a compile-only device: no TPU needed). A candidate is
`ok` (compiled), `refused` (the compile raised; its message is kept), `compiler_crash` (the
compiling process died: libtpu aborts its process on some internal checks) or `timeout`.

The compiles run in worker processes (`-j` of them), each of which loads JAX and libtpu once
and compiles one candidate after another. This parent supervises them: a worker that dies or
stays past `--candidate-timeout` on a candidate is killed, that candidate gets its status, and
a fresh worker takes the next one, so a crash or a hang costs one candidate, never the run.

libtpu takes a lockfile so that two processes never drive one host's TPU chips. Compiling
needs no chip: on a host without chips the workers may all load libtpu
(ALLOW_MULTIPLE_LIBTPU_LOAD=1); on a host with chips the lock is kept and one worker runs.
The workers never open a chip (JAX_PLATFORMS=cpu: JAX's own backend is the CPU; the TPU
plugin is loaded only for the topology's compile-only devices).

Test-only hook: HELIONC_COMPILE_TEST_ONLY_FAULTS, a JSON object mapping "<call index>/<candidate
index>" to what the worker does instead of compiling that candidate: "abort" (aborts the
process, as libtpu's internal checks do), "hang" (sleeps past the timeout) or "module=PATH"
(compiles the module at PATH, e.g. one the compiler refuses, through the same path as any
candidate). Nothing else reads it.
"""

from __future__ import annotations

import glob
import importlib.metadata
import json
import os
import pathlib
import queue
import select
import signal
import subprocess
import sys
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))  # also under `python -I`
import helionc_candidates as shared  # noqa: E402

TEST_FAULTS_ENV = "HELIONC_COMPILE_TEST_ONLY_FAULTS"
# The Python packages a compile needs; `jax[tpu]` brings both.
NEEDED = ("jax", "libtpu")
INSTALL = '"jax[tpu]" (the tests use jax[tpu]==0.10.2)'
# A worker loads JAX and libtpu before its first candidate (about 2 s here); a start that takes
# longer than this, or than the candidate timeout if that is longer, is a broken installation.
START_TIMEOUT_S = 120


def refusal_text(error: Exception) -> str:
    """The compiler's message without Mosaic's request for bug reports (it is no bug of JAX's)."""
    lines = [line for line in f"{type(error).__name__}: {error}".splitlines()
             if not line.startswith("Please report a bug")]
    return "\n".join(lines).strip()[:4000]


# ---- the worker: loads libtpu once, compiles one task per line of stdin ---------------------
#
# A task: {"module": path, "kernel": name, "tensors": [{"name", "shape", "dtype"}], "scalars":
# {name: value} (optional), "fault": test hook (optional)}. Its report: {"status": "ok" or
# "refused", "message", "seconds"}.


def worker(topology: str) -> int:
    # Reports go to the original stdout; anything else printed (JAX, libtpu) goes to stderr.
    reports = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    import jax
    from jax.experimental import topologies

    device = topologies.get_topology_desc(platform="tpu", topology_name=topology).devices[0]
    sharding = jax.sharding.SingleDeviceSharding(device)
    # Pallas asks for the TPU generation while tracing (emit_pipeline, rank-1 VMEM blocks):
    # trace inside an abstract mesh of that generation's device kind.
    mesh = jax.sharding.AbstractMesh(
        (), (), abstract_device=jax.sharding.AbstractDevice(device.device_kind, 1, "tpu"))
    reports.write(json.dumps({"ready": device.device_kind}) + "\n")

    for line in sys.stdin:
        task = json.loads(line)
        fault = task.get("fault", "")
        module_path = pathlib.Path(task["module"])
        if fault == "abort":
            os.abort()
        if fault == "hang":
            time.sleep(10 * 24 * 3600)  # the parent's timeout ends this
        if fault.startswith("module="):
            module_path = pathlib.Path(fault[len("module="):])
        start = time.perf_counter()
        try:
            fn = getattr(shared.load_module(module_path), task["kernel"])
            inputs = shared.by_parameter({
                t["name"]: jax.ShapeDtypeStruct(tuple(t["shape"]), jax.numpy.dtype(t["dtype"]),
                                                sharding=sharding)
                for t in task["tensors"]})
            scalars = task.get("scalars", {})
            with jax.sharding.use_abstract_mesh(mesh):
                jax.jit(lambda kwargs: fn(**kwargs, **scalars, interpret=False)).lower(inputs).compile()
            report = {"status": "ok", "message": ""}
        except Exception as e:  # Pallas's block rules, Mosaic, the TPU backend (VMEM)
            report = {"status": "refused", "message": refusal_text(e)}
        report["seconds"] = time.perf_counter() - start
        reports.write(json.dumps(report) + "\n")
    return 0


# ---- the parent: supervises the workers -------------------------------------------------------


class StartFailed(Exception):
    """A worker could not load libtpu or the topology: no candidate can be compiled."""


class Worker:
    """One worker process and its stderr log; `compile` gives a task's report."""

    def __init__(self, topology: str, log_path: pathlib.Path, env: dict):
        self.topology, self.log_path, self.env = topology, log_path, env
        self.proc = None
        self.buffer = b""

    def _start(self, timeout: float):
        offset = self.log_path.stat().st_size if self.log_path.exists() else 0
        with self.log_path.open("ab") as log:
            self.proc = subprocess.Popen(
                [sys.executable, __file__, "--worker", self.topology],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, env=self.env,
                start_new_session=True)
        self.buffer = b""
        line = self._read_line(timeout)
        if line is None or line == b"":
            why = "did not start in time" if line is None else self._end()
            self.kill()
            raise StartFailed(f"the compile worker {why}: {self._log_tail(offset)}")

    def compile(self, task: dict, timeout: float) -> dict:
        if self.proc is None:
            self._start(max(timeout, START_TIMEOUT_S))
        offset = self.log_path.stat().st_size
        try:
            self.proc.stdin.write((json.dumps(task) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass  # it died: the read below sees the end of its output
        line = self._read_line(timeout)
        if line is None:
            self.kill()
            return {"status": "timeout", "message": f"no result after {timeout:g} s"}
        if line == b"":
            how = self._end()
            self.proc = None
            return {"status": "compiler_crash",
                    "message": f"the compiling process {how}: {self._log_tail(offset)}"}
        return json.loads(line)

    def _read_line(self, timeout: float):
        """The next line of the worker's output; b"" at its end, None after `timeout` s."""
        deadline = time.monotonic() + timeout
        fd = self.proc.stdout.fileno()
        while b"\n" not in self.buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                return None
            chunk = os.read(fd, 65536)
            if not chunk:
                return b""
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line

    def _end(self) -> str:
        code = self.proc.wait()
        if code < 0:
            return f"was killed by {signal.Signals(-code).name}"
        return f"exited with status {code}"

    def _log_tail(self, offset: int) -> str:
        text = self.log_path.read_bytes()[offset:].decode(errors="replace")
        lines = [line for line in text.splitlines()
                 if line.strip() and "TPU_ACCELERATOR_TYPE" not in line and "TPU_WORKER" not in line]
        return "\n".join(lines[-12:]) or "(nothing on stderr)"

    def kill(self):
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.proc = None

    def close(self):
        if self.proc is not None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
            self.proc = None


def worker_env(jobs: int) -> tuple[dict, int]:
    env = dict(os.environ, JAX_PLATFORMS="cpu")
    if glob.glob("/dev/accel*") or glob.glob("/dev/vfio/[0-9]*"):
        return env, 1  # TPU chips here: keep libtpu's lock, one worker
    env["ALLOW_MULTIPLE_LIBTPU_LOAD"] = "1"
    return env, jobs


def compile_all(tasks: list, topology: str, jobs: int, timeout: float, log_dir: pathlib.Path,
                on_report) -> str | None:
    """Compiles every task for `topology` on up to `jobs` workers; `on_report(index, report)` is
    called (one call at a time) as soon as a task's report is known. Returns why libtpu could
    not start (then the remaining tasks have no report), else None."""
    env, jobs = worker_env(jobs)
    pending = queue.Queue()
    for index, task in enumerate(tasks):
        pending.put((index, task))
    lock = threading.Lock()
    failures = []

    def run_slot(slot: int):
        worker_process = Worker(topology, log_dir / f"worker_{slot}.log", env)
        try:
            while not failures:
                try:
                    index, task = pending.get_nowait()
                except queue.Empty:
                    return
                try:
                    report = worker_process.compile(task, timeout)
                except StartFailed as e:
                    with lock:
                        failures.append(str(e))
                    return
                with lock:
                    on_report(index, report)
        finally:
            worker_process.close()

    threads = [threading.Thread(target=run_slot, args=(slot,))
               for slot in range(max(1, min(jobs, len(tasks))))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return failures[0] if failures else None


def main() -> int:
    if sys.argv[1:2] == ["--worker"]:
        return worker(sys.argv[2])
    args = shared.parse_args(__doc__.split("\n\n")[0])
    if shared.lacks(NEEDED, args.results, "compile", "JAX's TPU compiler", INSTALL):
        return 0
    plan = shared.read_plan(args.plan)
    work = pathlib.Path(args.plan).parent
    say = shared.sayer(args.quiet, "compile")
    identity = {"topology": plan["topology"], "libtpu": importlib.metadata.version("libtpu"),
                "jax": importlib.metadata.version("jax")}
    journal = shared.Journal(args.journal, args.resume, identity)
    faults = json.loads(os.environ.get(TEST_FAULTS_ENV, "{}"))

    records = {}  # (call, candidate) -> journal record
    tasks, keys = [], []
    for c, call in enumerate(plan["calls"]):
        for k, candidate in enumerate(call["candidates"]):
            sha256 = shared.module_sha256(work, candidate["module"])
            record = journal.get(call["call"], candidate["config"], sha256)
            if record:
                records[(c, k)] = record
                say(f"{call['call']} candidate {k}: {record['status']} (journal)")
                continue
            tasks.append({"module": str(work / candidate["module"]), "kernel": plan["kernel"],
                          "tensors": call["tensors"], "fault": faults.get(f"{c}/{k}", "")})
            keys.append((c, k, sha256))

    def on_report(index: int, report: dict):
        c, k, sha256 = keys[index]
        call = plan["calls"][c]
        candidate = call["candidates"][k]
        records[(c, k)] = journal.add({
            "call": call["call"], "rank": k, "config": candidate["config"],
            "module_sha256": sha256, "status": report["status"], "seconds": report.get("seconds"),
            "predicted_us": candidate["predicted_us"], "message": report["message"]})
        say(f"{call['call']} candidate {k}: {report['status']}"
            + (f" ({report['seconds']:.2f} s)" if report.get("seconds") else "")
            + (f": {shared.one_line(report['message'], 200)}" if report["message"] else ""))

    failure = compile_all(tasks, plan["topology"], plan["jobs"], plan["timeout_s"], work, on_report)
    journal.close()
    if failure:
        return shared.refuse_to_start(
            args.results, f"--search compile: libtpu could not start for {plan['topology']}: "
                          f"{failure}")
    rows = [(c, k, r["status"], None, r["message"]) for (c, k), r in sorted(records.items())]
    shared.write_results(args.results, identity, rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
