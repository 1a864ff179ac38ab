#!/usr/bin/env bash
# Installs whatever helionc needs and is missing, then configures and builds it into build/.
# Idempotent: with nothing to do it checks a few packages, one stamp and runs a no-op build.
#
#   1. Debian packages (apt-get; sudo only when not root): the C++ libraries, the build tools,
#      npm (fetches tree-sitter-python and the tree-sitter runtime at configure time) and
#      python3-venv.
#   2. The project-local venv .venv/ with the pinned test requirements (tests/requirements.txt),
#      reinstalled only when that file changes.
#   3. cmake configure (first time only; Ninja when present) and build.
#
# Environment: HELIONC_BUILD_DIR (default build), HELIONC_BUILD_TYPE (default RelWithDebInfo),
# HELIONC_JOBS (default 2), HELIONC_PYTHON (the interpreter for the venv, default python3),
# HELIONC_SKIP_APT=1 (never call apt-get; report what is missing instead),
# HELIONC_SANITIZERS=1 (also clang 14 and its sanitizer and fuzzer runtimes, for
# scripts/sanitize.sh and scripts/fuzz.sh; CI sets it), HELIONC_SETUP_PACKAGES_ONLY=1 (step 1
# only, without the optional Bazel: scripts/asan_build.sh installs its compiler through it),
# HELIONC_SETUP_NO_BUILD=1 (steps 1 and 2: scripts/test.sh times the build apart).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"

BUILD_DIR="${HELIONC_BUILD_DIR:-$ROOT/build}"
BUILD_TYPE="${HELIONC_BUILD_TYPE:-RelWithDebInfo}"
JOBS="${HELIONC_JOBS:-2}"
PYTHON="${HELIONC_PYTHON:-python3}"
VENV="$ROOT/.venv"
REQUIREMENTS="$ROOT/tests/requirements.txt"

log() { printf 'setup: %s\n' "$*" >&2; }

# ---- 1. Debian packages ----------------------------------------------------------------------
# A package counts as present when dpkg has it installed, or (for tools that also come from
# elsewhere, like npm bundled with nodesource's nodejs) when its probe command succeeds.
missing=()
want_package() {
  local package="$1"
  shift
  if dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    return
  fi
  if [ "$#" -gt 0 ] && "$@" >/dev/null 2>&1; then
    return
  fi
  missing+=("$package")
}
want_package libcli11-dev                      # command line parsing (driver)
want_package libfmt-dev                        # formatting
want_package catch2                            # unit tests (Catch2 v2)
want_package libyaml-cpp-dev                   # tuning configs
want_package cmake command -v cmake
want_package ninja-build command -v ninja
want_package g++ command -v g++
want_package npm command -v npm                # fetches tree-sitter-python and the runtime
want_package python3-venv "$PYTHON" -c 'import venv, ensurepip'
want_package mandoc command -v mandoc          # lints the man page (tests)
want_package clang-format command -v clang-format  # checks the sources' formatting (tests)
want_package groff-base command -v groff       # checks the man page (tests)
want_package make command -v make              # the Make rules' test project
if [ "${HELIONC_SANITIZERS:-0}" = 1 ]; then
  want_package clang-14 command -v clang++-14    # the sanitizer and fuzzing builds' compiler
  want_package libclang-rt-14-dev                # their ASan, UBSan and libFuzzer runtimes
fi

sudo=()
if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${HELIONC_SKIP_APT:-0}" = 1 ]; then
    log "missing Debian packages (HELIONC_SKIP_APT=1, not installing): ${missing[*]}"
    exit 1
  fi
  log "installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

if [ "${HELIONC_SETUP_PACKAGES_ONLY:-0}" = 1 ]; then exit 0; fi

# Debian's bazel-bootstrap (Bazel 4.2, with a JDK: about 40 s to install) runs the Bazel rule's
# test. Optional: where it cannot be installed, that test is skipped and says so;
# HELIONC_SKIP_BAZEL=1 does not try.
if [ "${HELIONC_SKIP_BAZEL:-0}" != 1 ] && [ "${HELIONC_SKIP_APT:-0}" != 1 ] &&
   ! command -v bazel >/dev/null 2>&1; then
  log "installing bazel-bootstrap (the Bazel rule's test)"
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
       --no-install-recommends bazel-bootstrap; then
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq || true
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends bazel-bootstrap ||
      log "bazel-bootstrap could not be installed: the Bazel test (buildsys.bazel) will be skipped"
  fi
fi

# ---- 2. The test venv ------------------------------------------------------------------------
# The stamp holds the requirements' hash; a venv whose interpreter no longer runs (its base
# Python was removed) is made again.
stamp="$VENV/.helionc-requirements.sha256"
wanted="$(sha256sum "$REQUIREMENTS" | cut -d' ' -f1)"
if ! "$VENV/bin/python" -c '' >/dev/null 2>&1; then
  log "creating $VENV with $("$PYTHON" --version 2>&1)"
  rm -rf "$VENV"
  "$PYTHON" -m venv "$VENV"
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  log "installing the test requirements into .venv (tests/requirements.txt)"
  rm -f "$stamp"
  "$VENV/bin/python" -m pip install --disable-pip-version-check -q -r "$REQUIREMENTS"
  echo "$wanted" >"$stamp"
fi

if [ "${HELIONC_SETUP_NO_BUILD:-0}" = 1 ]; then exit 0; fi

# ---- 3. Configure and build ------------------------------------------------------------------
# Configure only once: later builds re-run CMake by themselves when a CMakeLists.txt changes,
# and the generator of an existing build directory cannot be changed anyway.
# (A configure that failed leaves a cache but no build file: it runs again.)
if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] ||
   { [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; }; then
  generator=()
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  log "configuring $BUILD_DIR"
  cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE="$BUILD_TYPE"
fi
cmake --build "$BUILD_DIR" -j "$JOBS"
