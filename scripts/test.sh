#!/usr/bin/env bash
# The test suite in stages, each timed; a table of the times ends the output.
#
#   bash scripts/test.sh            the full tier (what CI runs; tests/README.md says what each
#                                   stage covers): setup, build, unit/golden, e2e (interpret
#                                   mode), compile checks (libtpu), bench checks, build-system
#                                   tests, tidy. With HELIONC_SANITIZERS=1 (CI) every stage runs
#                                   on one build under ASan and UBSan instead (see below)
#   bash scripts/test.sh --quick    the developer's tier (at most 5 minutes): the build, unit,
#                                   golden, lint, cli and fuzz-replay tests, and every sample
#                                   once with its default config, run and compiled for tpu7x
#   bash scripts/test.sh -R REGEX   any other arguments: plain ctest with them, no stages
#
# Every stage runs, even after one failed; the exit status is that of the first failure.
# Environment: that of scripts/setup.sh (HELIONC_BUILD_DIR, HELIONC_JOBS, HELIONC_SANITIZERS,
# ...) and of scripts/sanitize.sh; HELIONC_E2E_FULL=1 runs the e2e matrices whole
# (tests/e2e/covering.py).
set -uo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_BUILD_DIR:-$ROOT/build}"
JOBS="${HELIONC_JOBS:-2}"
build=(bash "$ROOT/scripts/setup.sh")

# With HELIONC_SANITIZERS=1 (CI) the suite runs on a single build under AddressSanitizer and
# UndefinedBehaviorSanitizer (scripts/asan_build.sh, clang 14) rather than on a plain build
# followed by a sanitized one: every test, the e2e and compile checks included, then drives a
# sanitized helionc, and CI compiles the sources once instead of twice (the wheel test, which
# builds the plain release, runs in the whole-matrix tier). A leak or undefined behaviour anywhere fails the test that
# reached it. The one test an address-space limit keeps from running under ASan (hostile's
# out-of-memory test) runs in the plain suite. scripts/sanitize.sh remains the way to add a
# sanitized pass to a plain build by hand.
if [ "${HELIONC_SANITIZERS:-0}" = 1 ] && [ "${1:-}" = "" ]; then
  BUILD_DIR="${HELIONC_ASAN_BUILD_DIR:-$ROOT/build-asan}"
  export HELIONC_ASAN_BUILD_DIR="$BUILD_DIR" HELIONC_BUILD_DIR="$BUILD_DIR" HELIONC_SANITIZED=1
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:${ASAN_OPTIONS:-}"
  export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
  build=(env HELIONC_ASAN_SANITIZE=address,undefined HELIONC_ASAN_FUZZ=OFF
         bash "$ROOT/scripts/asan_build.sh")
fi

stages=()
status=0
# stage NAME COMMAND...: runs the command, records its wall time and result.
stage() {
  local name="$1" start end rc
  shift
  printf '\n==== %s\n' "$name"
  start=$(date +%s)
  "$@"
  rc=$?
  end=$(date +%s)
  stages+=("$(printf '%-22s %6d s  %s' "$name" $((end - start)) "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")")")
  if [ $rc != 0 ] && [ $status = 0 ]; then status=$rc; fi
  return 0
}
report() {
  printf '\n==== time per stage\n'
  printf '%s\n' "${stages[@]}"
  printf '%-22s %6d s\n' total $(($(date +%s) - suite_start))
}
ctest_labels() { ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" -L "$1"; }

# Every registered test carries the label of exactly one stage; a new test without one would
# silently never run.
STAGE_LABELS='^(unit|golden|lint|docs|cli|hostile|fuzz|e2e|tpu|quick|bench|buildsys|tidy)$'
check_labels() {
  local unlabelled
  unlabelled="$(ctest --test-dir "$BUILD_DIR" -N -LE "$STAGE_LABELS" | grep -E '^ *Test +#' || true)"
  if [ -n "$unlabelled" ]; then
    printf 'tests without a stage label (tests/CMakeLists.txt):\n%s\n' "$unlabelled" >&2
    return 1
  fi
}

# The modules helionc makes for the e2e tests, shared by the interpret-mode stage and the
# compile checks (tests/e2e/conftest.py; one binary, one tree, so one module per sample and config).
HELIONC_E2E_MODULE_DIR="$(mktemp -d)"
export HELIONC_E2E_MODULE_DIR
trap 'rm -rf "$HELIONC_E2E_MODULE_DIR"' EXIT

suite_start=$(date +%s)
case "${1:-}" in
  --quick)
    stage setup env HELIONC_SETUP_NO_BUILD=1 bash "$ROOT/scripts/setup.sh"
    stage build bash "$ROOT/scripts/setup.sh"
    if [ $status != 0 ]; then report; exit $status; fi  # nothing to test without a build
    stage labels check_labels
    stage unit/golden ctest_labels '^(unit|golden|lint|docs|cli|fuzz)$'
    stage "e2e (quick)" ctest_labels '^quick$'
    ;;
  "")
    stage setup env HELIONC_SETUP_NO_BUILD=1 bash "$ROOT/scripts/setup.sh"
    stage build "${build[@]}"
    if [ $status != 0 ]; then report; exit $status; fi  # nothing to test without a build
    stage labels check_labels
    stage unit/golden ctest_labels '^(unit|golden|lint|docs|cli|hostile|fuzz)$'
    stage e2e ctest_labels '^e2e$'
    stage "compile checks" ctest_labels '^tpu$'
    stage "bench checks" ctest_labels '^bench$'
    stage "build-system tests" ctest_labels '^buildsys$'
    stage tidy ctest_labels '^tidy$'
    ;;
  *)
    bash "$ROOT/scripts/setup.sh" || exit $?
    ctest --test-dir "$BUILD_DIR" --output-on-failure -j "$JOBS" "$@"
    exit $?  # (not exec: the trap above removes the modules' folder)
    ;;
esac
report
exit $status
