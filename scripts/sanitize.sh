#!/usr/bin/env bash
# The test suite under AddressSanitizer and UndefinedBehaviorSanitizer (CI runs it after the
# normal suite: scripts/test.sh with HELIONC_SANITIZERS=1): builds build-asan/
# (scripts/asan_build.sh: clang 14, ASan+UBSan, no fuzzing instrumentation), then runs every
# ctest test but the full e2e suite (unit, golden, hostile, build integration, man page, the fuzz
# targets' replays) and the e2e tests of tests/e2e/asan_subset.txt with the sanitized helionc.
# Not run here: the source checks (format, tidy), which read the sources, not a build, and have
# passed in the normal suite, and buildsys.wheel, which compiles helionc again without
# sanitizers. Extra arguments go to ctest.
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
ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -LE '^e2e$' \
  -E '^(format|tidy|buildsys[.]wheel)$' "$@"

mapfile -t subset < <(grep -v '^#' "$ROOT/tests/e2e/asan_subset.txt" | grep .)
cd "$ROOT"
HELIONC="$BUILD_DIR/src/driver/helionc" JAX_PLATFORMS=cpu \
  "$ROOT/.venv/bin/python" -m pytest -q -p no:cacheprovider "${subset[@]}"
