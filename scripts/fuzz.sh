#!/usr/bin/env bash
# Fuzzes each libFuzzer target of tests/fuzz for MINUTES minutes (default 1), one after the
# other:
#
#   bash scripts/fuzz.sh [MINUTES] [TARGET...]      # targets: compile config shapes (default all)
#
# Builds the fuzzing build (scripts/asan_build.sh with libFuzzer): build-fuzz/ with ASan+UBSan
# by default; HELIONC_FUZZ_SANITIZE picks other sanitizers, each in a folder of its own
# (`undefined`: build-fuzz-undefined/, UBSan only, faster: no shadow memory, no quarantine;
# empty: build-fuzz-none/, no sanitizer, crashes and the targets' own checks only). Seeds each
# corpus from the samples, the golden tests and the kept regressions and runs the target in one
# process, or in HELIONC_JOBS processes (default 1) over the one corpus. Corpora grow in
# BUILD/fuzz/corpus/TARGET (kept between runs, never committed); a crash lands in
# BUILD/fuzz/crashes/TARGET/ and stops that target. Fix it, then keep the input in
# tests/fuzz/regressions/TARGET/, which ctest replays. Prints each target's executions and
# rate and the total; exits 1 when any target found a crash.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
SANITIZE="${HELIONC_FUZZ_SANITIZE-address,undefined}"
if [ "$SANITIZE" = address,undefined ]; then
  default_dir="$ROOT/build-fuzz"
else
  default_dir="$ROOT/build-fuzz-$(echo "${SANITIZE:-none}" | tr , -)"
fi
BUILD_DIR="${HELIONC_FUZZ_BUILD_DIR:-$default_dir}"
JOBS="${HELIONC_JOBS:-1}"
MINUTES="${1:-1}"
shift || true
targets=("$@")
[ "${#targets[@]}" -gt 0 ] || targets=(compile config shapes)

fuzzers=()
for target in "${targets[@]}"; do fuzzers+=("fuzz_$target"); done
HELIONC_ASAN_BUILD_DIR="$BUILD_DIR" HELIONC_ASAN_SANITIZE="$SANITIZE" HELIONC_ASAN_FUZZ=ON \
  bash "$ROOT/scripts/asan_build.sh" "${fuzzers[@]}" >&2

# Seeds per target (files are copied under their content hash, so reseeding adds nothing twice):
# kernels, not the samples' expectation files, the golden tests' expected modules or their runner
# (these are up to 25 KB and set libFuzzer's length limit, so that mutants grew to eight times a
# kernel's size and cost).
seeds() {
  case "$1" in
    compile) find "$ROOT/samples" "$ROOT/tests/golden" -name '*.py' ! -name '*_pallas.py' \
               ! -name '*.expect.py' ! -name run_golden.py ;;
    config) find "$ROOT/tests/golden" "$ROOT/samples" "$ROOT/configs" -name '*.yaml' ;;
    shapes) find "$ROOT/samples" "$ROOT/tests/golden" -name '*.shapes' ;;
  esac
  find "$ROOT/tests/fuzz/regressions/$1" -type f
}

# libFuzzer checks for leaks itself (only after a run that freed fewer blocks than it
# allocated); UBSan findings abort (-fno-sanitize-recover), with a stack.
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
  options=(-max_total_time=$((MINUTES * 60)) -timeout=20 -rss_limit_mb=4096
           -artifact_prefix="$crashes/" -print_final_stats=1)
  if [ -f "$ROOT/tests/fuzz/$target.dict" ]; then options+=(-dict="$ROOT/tests/fuzz/$target.dict"); fi
  # A compile touches thousands of coverage features, and the entropic schedule's bookkeeping
  # for each of them doubled the CPU time of every execution (2,000 runs: 15.0 s with it, 6.7
  # without, to the same coverage); the small targets do not pay it.
  if [ "$target" = compile ]; then options+=(-entropic=0); fi
  # Twice the largest sample (3.7 KB); an older corpus's longer inputs are cut to it.
  if [ "$target" = compile ]; then options+=(-max_len=8192); fi
  rm -f "$logs"/*.log
  touch "$logs/started"  # crashes of earlier runs stay in $crashes; this run's are newer
  # The CPU seconds the fuzzers used, beside libFuzzer's wall-clock rate: on a shared machine
  # executions per CPU second are the rate of an idle core.
  TIMEFORMAT='%R %U %S'
  set +e
  if [ "$JOBS" -eq 1 ]; then
    # One process, no fork: -jobs=1 would still run the fuzzer as a child of a supervisor.
    { time "$BUILD_DIR/tests/fuzz/fuzz_$target" "${options[@]}" "$corpus" \
        >"$logs/fuzz-0.log" 2>&1; } 2>"$logs/cpu"
  else
    # JOBS processes over the one corpus, each for the whole time (logs fuzz-N.log).
    { time (cd "$logs" && "$BUILD_DIR/tests/fuzz/fuzz_$target" "${options[@]}" -jobs="$JOBS" \
        -workers="$JOBS" "$corpus" >/dev/null 2>&1); } 2>"$logs/cpu"
  fi
  set -e
  stat() {  # a final statistic of libFuzzer's, summed over the processes
    cat "$logs"/fuzz-*.log 2>/dev/null | sed -n "s/^stat::$1: *//p" | awk '{s += $1} END {print s + 0}'
  }
  runs=$(stat number_of_executed_units)
  found=$(find "$crashes" -type f -newer "$logs/started" | wc -l)
  wall=$(awk '{printf "%d", $1 + 0.5}' "$logs/cpu")
  cpu=$(awk '{printf "%d", $2 + $3 + 0.5}' "$logs/cpu")
  printf 'fuzz %-8s %10d executions in %d s (%d per second; %d CPU s, %d per CPU second), %d crash inputs in %s\n' \
    "$target" "$runs" "$wall" "$(stat average_exec_per_sec)" "$cpu" \
    $((runs / (cpu > 0 ? cpu : 1))) "$found" "$crashes"
  older=$(find "$crashes" -type f ! -newer "$logs/started" | wc -l)
  [ "$older" -eq 0 ] || echo "fuzz $target: $older crash inputs of earlier runs in $crashes" >&2
  total=$((total + runs))
  [ "$found" -eq 0 ] || status=1
done
printf 'fuzz total    %10d executions\n' "$total"
exit "$status"
