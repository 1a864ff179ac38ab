// Whole-file input and atomic output. Errors come back as messages ("cannot read `k.py`: No
// such file or directory") for the driver to report; nothing here prints or exits.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "support/expected.h"

namespace helionc {

// The whole content of `path`; "-" reads standard input to its end. Reading stops once more
// than `max_bytes` have arrived (the caller sees a longer result and refuses it), so an endless
// input such as /dev/zero cannot exhaust memory.
Expected<std::string> read_file(const std::string& path, size_t max_bytes = SIZE_MAX);

// Writes `content` where `-o path` points, the way a C compiler treats its output:
//   - "-": standard output.
//   - A regular file, or nothing yet: atomically, so that readers (and Make) see either the old
//     file or the whole new one, never a partial file. The bytes go to a temporary file in the
//     same directory, which is then renamed over the file (not fsync'ed: see file_io.cpp); on
//     any failure the temporary file is removed and the file is untouched. A new file gets the
//     usual 0666 & ~umask permissions; an existing file keeps its permissions.
//   - A symbolic link (or a chain of them): the file it points at is written as above and the
//     link stays a link, as GCC does; a dangling link creates its target.
//   - A character device (/dev/null, a terminal) or a FIFO, also through a link such as
//     /dev/stdout: written through in place; there is nothing to rename.
//   - Anything else (a directory, a socket, a block device): an error, nothing written.
Status write_output_file(const std::string& path, std::string_view content);

// Whether `a` and `b` name the same file: the same device and inode (through links, hard links
// included), or, where either does not exist, the same absolute path after normalisation.
// "-" is never the same as anything.
bool same_file(const std::string& a, const std::string& b);

}  // namespace helionc
