#!/usr/bin/env bash
# Compile time per sample, whole helionc process: scripts/bench.sh [--runs N] [--markdown] [--check]
# Builds helionc first when the build folder exists and is stale; HELIONC overrides the binary.
# Extra arguments go to tests/bench/compile_time.py (see its --help). Goal: < 10 ms per kernel.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/helionc_env.sh
exec "$python" tests/bench/compile_time.py "$@"
