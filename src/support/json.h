// Minimal JSON output helpers (helionc writes JSON, it never reads it): enough for
// --diagnostics-format json and machine-readable reports without a JSON library.
#pragma once

#include <string>
#include <string_view>

namespace helionc {

// `text` as a JSON string literal, quotes included. Escapes `"`, `\` and control characters;
// bytes that are not valid UTF-8 become U+FFFD, so the output is always valid JSON even when a
// message quotes a source file in another encoding.
std::string json_quote(std::string_view text);

}  // namespace helionc
