"""What the runners of `helionc --autotune --search measure|compile` share (installed beside them).

helionc writes a plan (plan.json: the kernel, the calls and per call the cost model's best
candidates, each compiled to a module in the plan's folder) and starts a runner with the Python
that HELIONC_PYTHON names. The runner reads the plan, records each candidate's verdict in a
journal (one JSON line per candidate, written as soon as it is known, so an interrupted run
resumed with `--resume` redoes only what the journal lacks) and at the end writes the results
file helionc reads back:

    KEY<TAB>VALUE                                          facts about the run (device, topology, ...)
    CALL<TAB>CANDIDATE<TAB>STATUS<TAB>TIME_US<TAB>MESSAGE  one line per candidate
    error<TAB>MESSAGE                                      instead, when the run cannot start

A runner that cannot start (the Python lacks what it needs) says so with an `error` line and
exits 0, so that helionc prints that message rather than a Python traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import pathlib
import sys


def load_module(path: pathlib.Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def by_parameter(values: dict) -> dict:
    """A call's values (by `--shapes` name) by the kernel's parameter: the elements of a pack
    parameter, `xs.0`, `xs.1` or `d.key`, gathered into a list or a dict (the module takes a
    list or a tuple alike)."""
    grouped = {}
    for name, value in values.items():
        param, _, element = name.partition(".")
        if element:
            grouped.setdefault(param, {})[int(element) if element.isdigit() else element] = value
        else:
            grouped[param] = value
    for param, elements in grouped.items():
        if isinstance(elements, dict) and all(isinstance(key, int) for key in elements):
            grouped[param] = [elements[i] for i in sorted(elements)]
    return grouped


def one_line(text: str, limit: int = 400) -> str:
    """`text` on one line (the results file and the YAML comments are line-based)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def parse_args(description: str, extra=None) -> argparse.Namespace:
    """The parent's arguments (as helionc passes them), plus a runner's own."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--plan", required=True)
    parser.add_argument("--journal")
    parser.add_argument("--results")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--quiet", action="store_true")
    if extra:
        extra(parser)
    return parser.parse_args()


def read_plan(path: str) -> dict:
    return json.loads(pathlib.Path(path).read_text())


def sayer(quiet: bool, prefix: str):
    if quiet:
        return lambda text: None
    return lambda text: print(f"{prefix}: {text}", file=sys.stderr, flush=True)


def module_sha256(work: pathlib.Path, module: str) -> str:
    return hashlib.sha256((work / module).read_bytes()).hexdigest()


class Journal:
    """The journal of verdicts. A record belongs to a call, a config, the module's text and the
    run's `identity` (the device, or the compiler): `--resume` keeps the records that match all
    four, so a verdict from another device, compiler or helionc module is not reused."""

    def __init__(self, path: str, resume: bool, identity: dict):
        self.path = pathlib.Path(path)
        self.identity = identity
        self.done = {}
        if resume and self.path.exists():
            for line in self.path.read_text().splitlines():
                try:
                    record = json.loads(line)
                except json.JSONDecodeError:
                    continue  # a line cut short by the interruption
                if all(record.get(k) == v for k, v in identity.items()):
                    self.done[self.key(record)] = record
            # Kept records only: a line the interruption cut short would swallow the next one.
            self.path.write_text("".join(json.dumps(r) + "\n" for r in self.done.values()))
        elif self.path.exists():
            self.path.unlink()
        self.log = self.path.open("a")

    @staticmethod
    def key(record: dict):
        return (record["call"], record["config"], record.get("module_sha256"))

    def get(self, call: str, config: str, sha256: str):
        return self.done.get((call, config, sha256))

    def add(self, record: dict) -> dict:
        record = {**record, **self.identity}
        self.log.write(json.dumps(record) + "\n")
        self.log.flush()
        self.done[self.key(record)] = record
        return record

    def close(self):
        self.log.close()


def write_results(path: str | None, facts: dict, rows) -> None:
    """`rows`: (call index, candidate index, status, time_us or None, message)."""
    if not path:
        return
    lines = [f"{key}\t{one_line(str(value))}" for key, value in facts.items()]
    for call, candidate, status, time_us, message in rows:
        lines.append(f"{call}\t{candidate}\t{status}\t{'' if time_us is None else time_us}\t"
                     f"{one_line(message or '')}")
    pathlib.Path(path).write_text("".join(line + "\n" for line in lines))


def missing_modules(names) -> str | None:
    """The first of `names` this Python cannot import, found without importing it (fast)."""
    for name in names:
        try:
            if importlib.util.find_spec(name) is None:
                return name
        except (ImportError, ValueError):
            return name
    return None


def lacks(names, results: str | None, search: str, needs: str, install: str) -> bool:
    """Whether this Python cannot import one of `names`; if so helionc is told what to install."""
    missing = missing_modules(names)
    if missing:
        refuse_to_start(
            results,
            f"--search {search} needs {needs}, and the Python `{sys.executable}` cannot import "
            f"`{missing}`: install it there with `{sys.executable} -m pip install {install}`, or "
            "name a Python that has it with HELIONC_PYTHON")
    return missing is not None


def refuse_to_start(path: str | None, message: str) -> int:
    """Tells helionc why the run cannot start (it prints the message, exit status 5)."""
    if path:
        pathlib.Path(path).write_text(f"error\t{one_line(message, 2000)}\n")
    else:
        print(message, file=sys.stderr)
    return 0
