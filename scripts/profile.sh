#!/usr/bin/env bash
# Kernel profile per sample and strategy, counted in the Mosaic MLIR lowered for TPU (issue 9):
#   scripts/profile.sh [--markdown | --json] [--samples matmul,attention] [--jobs N] [--lines N]
# Builds helionc first when the build folder exists and is stale; HELIONC overrides the binary.
# Extra arguments go to tests/bench/kernel_profile.py (see its --help). Lowering only: under a
# minute on two cores. Goals are printed as PASS/FAIL lines; the exit status is 1 only on errors.
#   scripts/profile.sh --static-cycles [--generation G ...] [--case matmul ...] [--markdown]
# instead compiles each kernel x loop strategy with libtpu and prints static cycles from the TPU
# compiler's final bundles beside JAX's kernels (tests/bench/static_cycles.py; about a minute).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
source scripts/helionc_env.sh
[[ "$python" == ".venv/bin/python" ]] || { echo "profile.sh: needs the project's venv (.venv, scripts/setup.sh)" >&2; exit 1; }
if [[ "${1:-}" == "--static-cycles" ]]; then
  shift
  exec nice "$python" tests/bench/static_cycles.py "$@"
fi
exec "$python" tests/bench/kernel_profile.py "$@"
