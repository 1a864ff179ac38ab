#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (meant to run in CI
# after scripts/test.sh): builds build-asan/ (scripts/asan_build.sh: clang with the sanitizers and
# the fuzz targets, the build scripts/fuzz.sh fuzzes), then runs every ctest test but the full e2e suite (unit,
# golden, man page, fuzz replays) and the e2e tests of tests/e2e/asan_subset.txt with the
# sanitized helionc. Extra arguments go to ctest.
#
# Environment: HELIONC_ASAN_BUILD_DIR (default build-asan), HELIONC_JOBS (default 2),
# HELIONC_SKIP_APT=1 (never call apt-get).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${HELIONC_JOBS:-2}"
export HELIONC_ASAN_BUILD_DIR="$BUILD_DIR"

bash "$ROOT/scripts/setup.sh"  # the packages, the venv and the grammar's npm cache
bash "$ROOT/scripts/asan_build.sh"

# Leaks are findings too; a UBSan report stops the process (-fno-sanitize-recover) with a stack.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -LE '^e2e$' "$@"

mapfile -t subset < <(grep -v '^#' "$ROOT/tests/e2e/asan_subset.txt" | grep .)
cd "$ROOT"
HELIONC="$BUILD_DIR/src/driver/helionc" JAX_PLATFORMS=cpu \
  "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider "${subset[@]}"
