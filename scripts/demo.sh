#!/usr/bin/env bash
# The demo: installs what is missing and builds (scripts/setup.sh), compiles every sample kernel
# (samples/*.py but the tests' *.expect.py) with helionc into build/samples/<name>_pallas.py,
# then runs one generated kernel (add) on random inputs in Pallas interpret mode and prints its
# error against numpy.
# Exit status: 0 when every sample compiled and the kernel matched numpy.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
BUILD_DIR="${HELIONC_BUILD_DIR:-$ROOT/build}"
HELIONC="${HELIONC:-$BUILD_DIR/src/driver/helionc}"
OUT_DIR="$BUILD_DIR/samples"

bash "$ROOT/scripts/setup.sh"

if [ ! -x "$HELIONC" ]; then
  echo "demo: the compiler is not built at $HELIONC" >&2
  exit 1
fi

mkdir -p "$OUT_DIR"
now_ms() { date +%s%3N; }
failed=0
total=0
for sample in samples/*.py; do
  case "$sample" in *.expect.py) continue ;; esac  # the tests' expectations, not a kernel
  name="$(basename "$sample" .py)"
  output="$OUT_DIR/${name}_pallas.py"
  total=$((total + 1))
  start="$(now_ms)"
  if "$HELIONC" "$sample" -o "$output"; then
    printf 'demo: %-24s -> %s (%d ms)\n' "$sample" "${output#"$ROOT/"}" $(($(now_ms) - start))
  else
    printf 'demo: %-24s FAILED (exit %d)\n' "$sample" "$?"
    failed=$((failed + 1))
  fi
done
echo "demo: compiled $((total - failed)) of $total samples into ${OUT_DIR#"$ROOT/"}/"

status=0
if [ -f "$OUT_DIR/add_pallas.py" ]; then
  "$ROOT/.venv/bin/python" "$ROOT/scripts/demo_run.py" "$OUT_DIR/add_pallas.py" || status=1
else
  echo "demo: no add_pallas.py to run" >&2
  status=1
fi
if [ "$failed" -gt 0 ]; then status=1; fi
exit "$status"
