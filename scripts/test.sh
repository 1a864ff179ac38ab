#!/usr/bin/env bash
# The whole test suite: installs what is missing and builds (scripts/setup.sh), then runs every
# test registered with ctest (unit, golden and end-to-end tests). Extra arguments go to ctest,
# e.g. `bash scripts/test.sh -R unit.parse`.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_BUILD_DIR:-$ROOT/build}"

bash "$ROOT/scripts/setup.sh"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "${HELIONC_JOBS:-2}" "$@"
