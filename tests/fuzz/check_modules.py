"""The fuzz replay's second stage: every module the compile target wrote must compile with
CPython (the fuzz target itself only runs a structural check).

    check_modules.py REPLAY_BINARY INPUT...

Runs REPLAY_BINARY (replay_compile) over the inputs with HELIONC_FUZZ_MODULE_DIR set to a
temporary directory, then compiles each module written there. Fails when the replay fails,
when no module was written (the check would test nothing), or when one does not compile.
"""

import os
import pathlib
import subprocess
import sys
import tempfile


def main() -> int:
    replay, inputs = sys.argv[1], sys.argv[2:]
    with tempfile.TemporaryDirectory() as modules:
        env = dict(os.environ, HELIONC_FUZZ_MODULE_DIR=modules)
        subprocess.run([replay, *inputs], env=env, check=True)
        written = sorted(pathlib.Path(modules).glob("*.py"))
        if not written:
            print("no module was written", file=sys.stderr)
            return 1
        failures = 0
        for module in written:
            try:
                compile(module.read_bytes(), str(module), "exec")
            except (SyntaxError, ValueError) as error:
                print(f"{module.name}: {error}", file=sys.stderr)
                failures += 1
        print(f"{len(written)} modules compiled by CPython, {failures} failed")
        return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
