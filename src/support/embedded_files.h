// Files embedded into the binary at build time by helionc_embed_files() in
// cmake/EmbedTemplates.cmake. Each generated table is returned by a function named when the
// table is declared (helionc::detail::embedded_template_files for templates/).
#pragma once

#include <span>
#include <string_view>

namespace helionc {

struct EmbeddedFile {
  std::string_view name;     // file name, without directories
  std::string_view content;  // the exact bytes of the file (may contain NULs)
};

namespace detail {
// The templates/*.tmpl files of the repository, sorted by name.
std::span<const EmbeddedFile> embedded_template_files();
}  // namespace detail

}  // namespace helionc
