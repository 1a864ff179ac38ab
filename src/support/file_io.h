// Whole-file input and atomic output. Errors come back as messages ("cannot read `k.py`: No
// such file or directory") for the driver to report; nothing here prints or exits.
#pragma once

#include <string>
#include <string_view>

#include "support/expected.h"

namespace helionc {

// The whole content of `path`; "-" reads standard input to its end.
Expected<std::string> read_file(const std::string& path);

// Writes `content` to `path` so that readers (and Make) see either the old file or the whole
// new one, never a partial file: the bytes go to a temporary file in the same directory,
// which is then renamed over `path` (not fsync'ed: see file_io.cpp); on any failure the temporary file is
// removed and `path` is untouched. A new file gets the usual 0666 & ~umask permissions; an
// existing file keeps its permissions. "-" writes to standard output instead.
Status write_file_atomically(const std::string& path, std::string_view content);

}  // namespace helionc
