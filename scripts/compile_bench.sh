#!/usr/bin/env bash
# The TPU compiler on helionc's output (issue 28): default configs compiled and refused by class
# per generation, and --search compile's time per call on the central samples:
#   scripts/compile_bench.sh [--generation G ...] [--sample NAME ...] [--search-generation G]
#       [--top K] [-j N] [--skip-census] [--skip-search] [--vmem] [--markdown] [--json OUT]
# Needs jax[tpu] in the venv (libtpu), no TPU. Builds helionc first when the build folder exists
# and is stale; HELIONC overrides the binary.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/helionc_env.sh
# The runner's Python: the venv's (scripts/helionc_env.sh), by its absolute path.
[[ "$python" == */* ]] && python="$root/$python"
export HELIONC_PYTHON="${HELIONC_PYTHON:-$python}"
exec "$python" tests/bench/compile_census.py "$@"
