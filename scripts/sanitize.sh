#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (CI runs it after the
# normal suite: scripts/test.sh with HELIONC_SANITIZERS=1): builds build-asan/
# (scripts/asan_build.sh: clang 14, ASan+UBSan, no fuzzing instrumentation), then runs the
# ctest stages that exercise helionc's own code on many inputs (labels unit, golden, fuzz: the
# fuzz targets' replays, cli, hostile) and the e2e tests of tests/e2e/asan_subset.txt with the
# sanitized helionc. Not run here: the source checks (lint, tidy), which read the sources, not a
# build; the build-system and bench tests, which drive the same compile paths as the tests above
# through other tools; and the full e2e and compile checks, whose time goes to jax and libtpu,
# not to helionc. Extra arguments go to ctest.
#
# Environment: HELIONC_ASAN_BUILD_DIR (default build-asan), HELIONC_JOBS (default 2),
# HELIONC_SKIP_APT=1 (never call apt-get).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${HELIONC_JOBS:-2}"
export HELIONC_ASAN_BUILD_DIR="$BUILD_DIR"

HELIONC_SANITIZERS=1 bash "$ROOT/scripts/setup.sh"  # the packages, the venv, the grammar's npm cache
HELIONC_ASAN_SANITIZE=address,undefined HELIONC_ASAN_FUZZ=OFF bash "$ROOT/scripts/asan_build.sh"

# Leaks are findings too; a UBSan report stops the process (-fno-sanitize-recover) with a stack.
# HELIONC_SANITIZED tells the tests that cannot run under ASan (an address-space limit) to skip.
export HELIONC_SANITIZED=1
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -L '^(unit|golden|fuzz|cli|hostile)$' "$@"

mapfile -t subset < <(grep -v '^#' "$ROOT/tests/e2e/asan_subset.txt" | grep .)
cd "$ROOT"
HELIONC="$BUILD_DIR/src/driver/helionc" JAX_PLATFORMS=cpu \
  "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider -n "$JOBS" "${subset[@]}"
