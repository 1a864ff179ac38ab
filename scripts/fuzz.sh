#!/usr/bin/env bash
# Fuzzes each libFuzzer target of tests/fuzz for MINUTES minutes (default 1):
#
#   bash scripts/fuzz.sh [MINUTES] [TARGET...]      # targets: compile config shapes (default all)
#
# Builds build-asan/ (scripts/asan_build.sh: clang, ASan+UBSan, libFuzzer), seeds each corpus
# from the samples, the golden tests and the kept regressions, and runs the target with -jobs
# from HELIONC_JOBS (default 2). Corpora grow in build-asan/fuzz/corpus/TARGET (kept between
# runs, never committed); a crash lands in build-asan/fuzz/crashes/TARGET/ and stops that
# target. Fix it, then keep the input in tests/fuzz/regressions/TARGET/, which ctest replays.
# Prints each target's executions and the total; exits 1 when any target found a crash.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD_DIR="${HELIONC_ASAN_BUILD_DIR:-$ROOT/build-asan}"
JOBS="${HELIONC_JOBS:-2}"
MINUTES="${1:-1}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(compile config shapes)
export HELIONC_ASAN_BUILD_DIR="$BUILD_DIR"

fuzzers=()
for target in "${targets[@]}"; do fuzzers+=("fuzz_$target"); done
bash "$ROOT/scripts/asan_build.sh" "${fuzzers[@]}" >&2

# Seeds per target (files are copied under their content hash, so reseeding adds nothing twice).
seeds() {
  case "$1" in
    compile) find "$ROOT/samples" "$ROOT/tests/golden" -name '*.py' ;;
    config) find "$ROOT/tests/golden" "$ROOT/samples" "$ROOT/configs" -name '*.yaml' ;;
    shapes) find "$ROOT/samples" "$ROOT/tests/golden" -name '*.shapes' ;;
  esac
  find "$ROOT/tests/fuzz/regressions/$1" -type f
}

export ASAN_OPTIONS="detect_leaks=1:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:${UBSAN_OPTIONS:-}"
total=0
status=0
for target in "${targets[@]}"; do
  corpus="$BUILD_DIR/fuzz/corpus/$target"
  crashes="$BUILD_DIR/fuzz/crashes/$target"
  logs="$BUILD_DIR/fuzz/logs/$target"
  mkdir -p "$corpus" "$crashes" "$logs"
  while IFS= read -r seed; do
    cp "$seed" "$corpus/seed-$(sha1sum "$seed" | cut -c1-16)"
  done < <(seeds "$target")
  dict=()
  if [ -f "$ROOT/tests/fuzz/$target.dict" ]; then dict=(-dict="$ROOT/tests/fuzz/$target.dict"); fi
  rm -f "$logs"/*.log
  # -jobs runs JOBS fuzzing processes over the one corpus, each for the whole time.
  set +e
  (cd "$logs" && "$BUILD_DIR/tests/fuzz/fuzz_$target" "$corpus" "${dict[@]}" \
     -max_total_time=$((MINUTES * 60)) -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
     -artifact_prefix="$crashes/" -jobs="$JOBS" -workers="$JOBS" -print_final_stats=1 \
     >/dev/null 2>&1)
  set -e
  runs=$(cat "$logs"/fuzz-*.log 2>/dev/null | sed -n 's/^stat::number_of_executed_units: *//p' |
         awk '{s += $1} END {print s + 0}')
  found=$(find "$crashes" -type f | wc -l)
  printf 'fuzz %-8s %10d executions in %d min, %d crash inputs in %s\n' \
    "$target" "$runs" "$MINUTES" "$found" "$crashes"
  total=$((total + runs))
  [ "$found" -eq 0 ] || status=1
done
printf 'fuzz total    %10d executions\n' "$total"
exit "$status"
