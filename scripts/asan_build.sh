#!/usr/bin/env bash
# Builds one clang 14 build with sanitizers, in a build folder of its own:
#
#   bash scripts/asan_build.sh [TARGET...]      # default: every target
#
# By default build-asan/ with AddressSanitizer and UndefinedBehaviorSanitizer (what
# scripts/sanitize.sh tests); scripts/fuzz.sh asks for build-fuzz/ (the same sanitizers plus
# libFuzzer's coverage instrumentation and the tests/fuzz/fuzz_* binaries). The normal build
# needs only g++: clang 14 and its sanitizer and fuzzer runtimes are installed here, through
# scripts/setup.sh's package step (HELIONC_SANITIZERS=1), when missing.
#
# Environment: HELIONC_ASAN_BUILD_DIR (default build-asan), HELIONC_ASAN_SANITIZE (the
# -fsanitize= list, default address,undefined; empty: none), HELIONC_ASAN_FUZZ (ON builds the
# libFuzzer targets, default OFF), HELIONC_JOBS (default 2), HELIONC_SKIP_APT=1 (never call
# apt-get; report what is missing instead).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_ASAN_BUILD_DIR:-$ROOT/build-asan}"
SANITIZE="${HELIONC_ASAN_SANITIZE-address,undefined}"
FUZZ="${HELIONC_ASAN_FUZZ:-OFF}"
JOBS="${HELIONC_JOBS:-2}"

HELIONC_SANITIZERS=1 HELIONC_SETUP_PACKAGES_ONLY=1 bash "$ROOT/scripts/setup.sh"

# Optimised as the sanitizers' own documentation advises: -O1 keeps a sanitized binary within a
# few times the speed of a plain one, and line tables are all a sanitizer's stack trace prints.
# Both compile about a third faster than RelWithDebInfo's -O2 -g (clang 14, the largest
# sources), which is most of CI's build stage.
FLAGS="-O1 -gline-tables-only -DNDEBUG"
# Compiled in batches of 16 sources per library (CMake's unity build): the headers, and the
# inline code of fmt and the standard library that every source instantiates, are compiled once
# a batch instead of once a source, which halves CI's build stage. It asks
# one thing of the code: names in the anonymous namespaces of one library's sources must differ
# (a helper two sources need belongs in a header anyway). clang-tidy still checks each source on
# its own (tests/format/check_tidy.sh; it takes a batch's flags for its sources).
UNITY=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=16)

# Configured once; a later call that asks for other sanitizers or fuzzing configures again
# (the cache keeps the rest, and CMake rebuilds what the new flags change).
configured() {
  grep -qx "HELIONC_SANITIZE:STRING=$SANITIZE" "$BUILD_DIR/CMakeCache.txt" 2>/dev/null &&
    grep -qx "CMAKE_CXX_FLAGS_RELWITHDEBINFO:STRING=$FLAGS" "$BUILD_DIR/CMakeCache.txt" &&
    grep -qx "HELIONC_FUZZ:BOOL=$FUZZ" "$BUILD_DIR/CMakeCache.txt" &&
    grep -qx "CMAKE_UNITY_BUILD:BOOL=ON" "$BUILD_DIR/CMakeCache.txt" &&
    { [ -f "$BUILD_DIR/build.ninja" ] || [ -f "$BUILD_DIR/Makefile" ]; }
}
if ! configured; then
  generator=()
  if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
    generator=(-G Ninja)
  fi
  cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="$FLAGS" -DCMAKE_C_FLAGS_RELWITHDEBINFO="$FLAGS" \
    -DHELIONC_SANITIZE="$SANITIZE" -DHELIONC_FUZZ="$FUZZ" "${UNITY[@]}"
fi
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$BUILD_DIR" -j "$JOBS" "${targets[@]}"
