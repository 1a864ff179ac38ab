#!/usr/bin/env bash
# Builds build-asan/: clang 14 with AddressSanitizer, UndefinedBehaviorSanitizer and the
# libFuzzer targets of tests/fuzz (HELIONC_SANITIZE=address,undefined, HELIONC_FUZZ=ON), the
# build scripts/sanitize.sh tests and scripts/fuzz.sh fuzzes. Installs clang and its runtimes
# from Debian when missing (the normal build needs only g++); run scripts/setup.sh first for
# everything else. Arguments name the targets to build (default: all).
#
# Environment: HELIONC_ASAN_BUILD_DIR (default build-asan), HELIONC_JOBS (default 2),
# HELIONC_SKIP_APT=1 (never call apt-get; report what is missing instead).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${HELIONC_JOBS:-2}"

missing=()
for package in clang-14 libclang-rt-14-dev; do  # the compiler; its sanitizer and fuzzer runtimes
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "${HELIONC_SKIP_APT:-0}" = 1 ]; then
    echo "asan_build: missing Debian packages (HELIONC_SKIP_APT=1, not installing): ${missing[*]}" >&2
    exit 1
  fi
  sudo=()
  if [ "$(id -u)" -ne 0 ]; then sudo=(sudo); fi
  echo "asan_build: installing ${missing[*]}" >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
    --no-install-recommends "${missing[@]}"
fi

if [ ! -f "$BUILD_DIR/CMakeCache.txt" ] ||
   { [ ! -f "$BUILD_DIR/build.ninja" ] && [ ! -f "$BUILD_DIR/Makefile" ]; }; then
  generator=()
  if command -v ninja >/dev/null 2>&1; then generator=(-G Ninja); fi
  cmake -S "$ROOT" -B "$BUILD_DIR" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_C_COMPILER=clang-14 -DCMAKE_CXX_COMPILER=clang++-14 \
    -DHELIONC_SANITIZE=address,undefined -DHELIONC_FUZZ=ON
fi
targets=()
for target in "$@"; do targets+=(--target "$target"); done
cmake --build "$BUILD_DIR" -j "$JOBS" "${targets[@]}"
