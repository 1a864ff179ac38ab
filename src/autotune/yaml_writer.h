// Writing YAML with yaml-cpp's emitter: the decisions every YAML that helionc writes shares
// (tuning configs, `--estimate`, `--emit config-space`), each made here once.
//
// - Strings are double-quoted, so every YAML reader (yaml-cpp, PyYAML's YAML 1.1 with its
//   `yes`/`on` booleans) reads them back as strings; characters outside ASCII are escaped.
// - Keys are plain where every reader reads them back as the same string, else double-quoted;
//   one longer than YAML's implicit-key limit is written explicit (`? key`), in block maps.
// - Floats are rounded to kSignificantDigits significant digits (rounded_float).
// - Comments are one line of visible text each (a `\r` in a compiler message cannot end one).
//
// Internal to the libraries that link yaml-cpp (autotune, driver); like yaml_reader.h, it
// exposes yaml-cpp types.
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "autotune/config.h"

namespace helionc::autotune::yaml_write {

// The cost model agrees with the published measurements to a few percent at best
// (docs/design/cost-model.md), so a fifth digit of its time says nothing; four still tell apart
// the candidates a reader compares (0.1 %). Measured times are medians of runs that vary more.
inline constexpr int kSignificantDigits = 4;

// `value` rounded to kSignificantDigits significant digits, written as the shortest text that
// reads back as the rounded double and always as a float (`145.0`, `0.001235`, `1.235e-07`,
// `123500.0`): never a bare integer, never an exponent without a `.` (YAML 1.1 readers take
// `1e-07` for a string). Rounding an already rounded value changes nothing, so a file read and
// written again is unchanged.
std::string rounded_float(double value);

// An emitter as every writer uses it (2-space indents, non-ASCII escaped, `null` for null).
void setup(YAML::Emitter& out);

// The emitter's text, ending with a newline, no line ending in a space (an empty comment
// line is `#`).
std::string document(const YAML::Emitter& out);

// Whether `name` must be written as an explicit key (`? name`): longer, once quoted, than the
// 1024 characters YAML allows an implicit key (yaml-cpp refuses 1,030). The emitter writes
// explicit keys only in block maps, so a map with such a key is written in block style.
bool needs_explicit_key(std::string_view name);
bool any_explicit_key(const std::vector<std::string_view>& names);

// `YAML::Key` and the key, plain or quoted as above.
void key(YAML::Emitter& out, std::string_view name);

// A string value, double-quoted.
void string(YAML::Emitter& out, std::string_view text);

// A float value, rounded_float.
void real(YAML::Emitter& out, double value);

// A flow sequence of integers: `[8, 1024, 256]`.
void int_list(YAML::Emitter& out, const std::vector<int64_t>& values);

// A flow sequence of strings, each double-quoted: `["grid", "unroll"]`.
void string_list(YAML::Emitter& out, const std::vector<std::string>& values);

// A config as a map: flow style (`{block_sizes: [64, 128], pallas_loop_type: ["grid"]}`), keys
// in the order of KernelConfig, tunables after them by name; block style if a key must be
// explicit.
void config(YAML::Emitter& out, const KernelConfig& config);

// A comment after the last value written, each line of `text` as its own `# ` line.
void comment(YAML::Emitter& out, std::string_view text);

}  // namespace helionc::autotune::yaml_write
