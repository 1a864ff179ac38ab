#!/usr/bin/env bash
# Autotune time per sample over its shape list (issue 10):
#   scripts/autotune_bench.sh [--target T] [--runs N] [--markdown]
# Builds helionc first when the build folder exists and is stale; HELIONC overrides the binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/helionc_env.sh
exec "$python" tests/bench/autotune_time.py "$@"
