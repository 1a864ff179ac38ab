#!/usr/bin/env bash
# Every C++ source and header the repository tracks is formatted as .clang-format says (Google
# style, 100 columns). Prints the files that are not, with clang-format's diagnostics, and fails.
# Fix with: git ls-files '*.cpp' '*.h' | xargs clang-format -i
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
clang_format="${CLANG_FORMAT:-clang-format}"
unformatted=()
while IFS= read -r file; do
  if ! "$clang_format" --dry-run -Werror "$file" >/dev/null 2>&1; then unformatted+=("$file"); fi
done < <(git ls-files '*.cpp' '*.h')
if [ "${#unformatted[@]}" -gt 0 ]; then
  for file in "${unformatted[@]}"; do "$clang_format" --dry-run "$file" 2>&1 | head -n 20; done
  echo "check_format: ${#unformatted[@]} file(s) not formatted: ${unformatted[*]}" >&2
  exit 1
fi
echo "check_format: every tracked C++ file is formatted"
