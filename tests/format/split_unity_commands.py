#!/usr/bin/env python3
"""Writes a compile database with a command for every source of a unity build.

CMake's unity build (scripts/asan_build.sh) lists only its batch files (`unity_N_cxx.cxx`, each
including a few sources) in compile_commands.json, and clang-tidy guesses a command for a source
the database lacks from the nearest file name, which can miss a target's own definitions. Each
source gets the command of the batch that compiles it instead: the same flags, the same
definitions. Entries of sources compiled on their own are kept.

    split_unity_commands.py BUILD_DIR OUT_DIR    (writes OUT_DIR/compile_commands.json)
"""

import json
import pathlib
import re
import sys

INCLUDE = re.compile(r'^#include "(.+)"$', re.MULTILINE)


def split(entries: list[dict]) -> list[dict]:
    result = []
    for entry in entries:
        batch = pathlib.Path(entry["file"])
        if batch.parent.name != "Unity" or not batch.name.startswith("unity_"):
            result.append(entry)
            continue
        for source in INCLUDE.findall(batch.read_text()):
            command = entry["command"].replace(str(batch), source)
            result.append(dict(entry, command=command, file=source))
    return result


def main() -> None:
    build, out = (pathlib.Path(a) for a in sys.argv[1:3])
    entries = json.loads((build / "compile_commands.json").read_text())
    (out / "compile_commands.json").write_text(json.dumps(split(entries), indent=1))


if __name__ == "__main__":
    main()
