#!/usr/bin/env bash
# Compile time per sample, whole helionc process: scripts/bench.sh [--runs N] [--markdown] [--check]
# Builds helionc first when the build folder exists and is stale; HELIONC overrides the binary.
# Extra arguments go to tests/bench/compile_time.py (see its --help). Goal: < 10 ms per kernel.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
if [[ -z "${HELIONC:-}" && -f build/CMakeCache.txt ]]; then
  cmake --build build --target helionc -j 2 >/dev/null || { echo "bench.sh: building helionc failed" >&2; exit 1; }
fi
export HELIONC="${HELIONC:-$root/build/src/driver/helionc}"
python="python3"
[[ -x .venv/bin/python ]] && python=".venv/bin/python"
exec "$python" tests/bench/compile_time.py "$@"
