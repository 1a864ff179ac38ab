#!/usr/bin/env python3
"""The calls Helion's own tests make to their kernels, captured while Helion runs them eagerly.

    python scripts/corpus_calls.py HELION_CHECKOUT OUT_DIR [--tests test/test_pallas.py] [-k EXPR]

Run with a Python that has torch, Helion's dependencies and jax (not the project's venv:
Helion itself is imported from HELION_CHECKOUT, a work tree of pytorch/helion at the commit the
corpus measures). It runs the test files with pytest in Helion's eager mode on the CPU
(HELION_INTERPRET=1, the Pallas backend in interpret mode), which is Helion's own meaning of each
kernel, and records every kernel call the tests make: the kernel (file, line of its first
decorator, name), each argument (a tensor's shape and dtype, or a Python value), the config the
call runs under (the kwargs of `code_and_output`, or the kernel's own `config=`), and, for calls
small enough, the argument values before the call and the results after it (the oracle of
scripts/corpus_tpu.py). A test that fails in eager mode still contributes the calls it made.

OUT_DIR gets calls.jsonl (one JSON object a call) and values/CALL.npz.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

PLUGIN = "corpus_calls_plugin"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkout")
    parser.add_argument("out_dir")
    parser.add_argument("--tests", nargs="+", default=["test/test_pallas.py"])
    parser.add_argument("-k", dest="keyword", help="pytest -k expression")
    parser.add_argument("--max-elements", type=int, default=1 << 22,
                        help="keep values of calls with at most this many elements in all")
    args = parser.parse_args()
    out_dir = os.path.abspath(args.out_dir)
    os.makedirs(os.path.join(out_dir, "values"), exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    env = dict(os.environ, HELION_BACKEND="pallas", HELION_PALLAS_INTERPRET="1",
               HELION_INTERPRET="1", JAX_PLATFORMS="cpu", CORPUS_CALLS_OUT=out_dir,
               CORPUS_CALLS_MAX_ELEMENTS=str(args.max_elements),
               PYTHONPATH=os.pathsep.join([os.path.abspath(args.checkout), here,
                                           os.environ.get("PYTHONPATH", "")]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", PLUGIN,
               *args.tests]
    if args.keyword:
        command += ["-k", args.keyword]
    # pytest's exit status counts the tests that fail in eager mode: not a capture failure.
    subprocess.run(command, cwd=args.checkout, env=env)
    with open(os.path.join(out_dir, "calls.jsonl")) as calls:
        print(f"{sum(1 for _ in calls)} calls captured in {out_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
