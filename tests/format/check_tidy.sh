#!/usr/bin/env bash
# clang-tidy with the checks of .clang-tidy on every C++ source the repository tracks under src/,
# using the compile commands of a build (argument: the build directory, default build/). Every
# warning is an error (WarningsAsErrors). Prints the findings and fails when there are any.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
build="${1:-build}"
tidy="${CLANG_TIDY:-.venv/bin/clang-tidy}"  # the pinned one (tests/requirements.txt)
jobs="${HELIONC_JOBS:-2}"
if [ ! -f "$build/compile_commands.json" ]; then
  echo "check_tidy: no $build/compile_commands.json (configure the build first)" >&2
  exit 1
fi
log="$(mktemp)"
commands="$(mktemp -d)"
trap 'rm -rf "$log" "$commands"' EXIT
# A unity build's database names its batches, not its sources: one command per source.
python3 tests/format/split_unity_commands.py "$build" "$commands"
status=0
git ls-files 'src/*.cpp' | xargs -P "$jobs" -n 4 "$tidy" -p "$commands" --quiet >"$log" 2>&1 || status=1
findings="$(grep -E '(warning|error):' "$log" | sort -u || true)"
if [ "$status" -ne 0 ] || [ -n "$findings" ]; then
  if [ -n "$findings" ]; then echo "$findings"; else tail -n 40 "$log"; fi
  echo "check_tidy: clang-tidy found problems (see above)" >&2
  exit 1
fi
echo "check_tidy: $(git ls-files 'src/*.cpp' | wc -l) sources clean"
