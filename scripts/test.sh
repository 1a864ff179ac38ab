#!/usr/bin/env bash
# The whole test suite: installs what is missing and builds (scripts/setup.sh), then runs every
# test registered with ctest (unit, golden and end-to-end tests). Extra arguments go to ctest,
# e.g. `bash scripts/test.sh -R unit.parse`. With HELIONC_SANITIZERS=1 (CI: .ci/run sets it)
# it then runs the suite again under ASan+UBSan (scripts/sanitize.sh: its own build, the
# whole ctest suite but the full e2e, and an e2e subset).
#
# Environment: that of scripts/setup.sh (HELIONC_BUILD_DIR, HELIONC_JOBS, HELIONC_SANITIZERS,
# ...) and of scripts/sanitize.sh.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_BUILD_DIR:-$ROOT/build}"

bash "$ROOT/scripts/setup.sh"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${HELIONC_JOBS:-2}" "$@"
if [ "${HELIONC_SANITIZERS:-0}" = 1 ]; then bash "$ROOT/scripts/sanitize.sh"; fi
