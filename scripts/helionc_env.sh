# Sourced by scripts/bench.sh and scripts/profile.sh (from the repository root): builds helionc
# first when the build folder exists and is stale, unless HELIONC names the binary; exports
# HELIONC and sets `python` to the project's venv interpreter when there is one.
if [[ -z "${HELIONC:-}" && -f build/CMakeCache.txt ]]; then
  cmake --build build --target helionc -j 2 >/dev/null || { echo "$(basename "$0"): building helionc failed" >&2; exit 1; }
fi
export HELIONC="${HELIONC:-$PWD/build/src/driver/helionc}"
python="python3"
[[ -x .venv/bin/python ]] && python=".venv/bin/python"
