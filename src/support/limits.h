// helionc's input limits, in one place. Each is far above what a real kernel file needs and low
// enough that every stage stays within its stack, its 32-bit source offsets and a few GiB of
// memory; past one the compile stops with a `limit-exceeded` error at the place that crossed it
// (man/helionc.1, LIMITS, lists them for users).
#pragma once

#include <cstdint>

namespace helionc::limits {

// Input files larger than this are refused before parsing. Source offsets are 32-bit
// (SourceRange, tree-sitter), and a compile takes about 60 bytes of memory per input byte
// (600 MB for 10 MB of short statements, measured 2026-12-01).
inline constexpr uint64_t kMaxInputBytes = 64u << 20;  // 64 MiB

// Config files (--config) larger than this are refused before parsing. yaml-cpp builds a node
// per scalar and takes about 120 bytes of memory and 1 s per MB of flow-style YAML (50 MB: 60 s,
// 6.1 GB, measured 2026-12-07); a tuned config holds a few hundred bytes per shape entry, so
// this leaves room for some ten thousand entries.
inline constexpr uint64_t kMaxConfigBytes = 4u << 20;  // 4 MiB

// Brackets open at once: `(`, `[` and `{`. CPython's tokenizer stops at 200 ("too many nested
// parentheses"); helionc takes the same number, so every file it refuses for this Python
// refuses too.
inline constexpr uint32_t kMaxBracketDepth = 200;

// Depth of the syntax tree, counting every named and anonymous node from the module down. The
// frontend, the IR passes and the printers recurse over expressions, so this bounds their stack
// use. A call nested 200 deep is about 450 levels; an operator chain (`a + b + ... + z`) adds one
// level per operator.
inline constexpr uint32_t kMaxSyntaxDepth = 1000;

// Identifiers longer than this are refused (names are copied into the generated module, into
// messages and into derived names such as `_k_<kernel>`).
inline constexpr uint32_t kMaxIdentifierBytes = 1000;

// Columns of indentation of a statement (a tab counts 8, as tree-sitter-python's scanner counts
// them). The scanner saves each level in one byte when it serialises its state, so a deeper
// level comes back as another one and a valid file fails to parse ("unexpected `def`"); when a
// file does not parse and a statement is indented this deep, that is the error reported.
inline constexpr uint32_t kMaxIndentColumns = 255;

// Kernels in one file (each becomes functions and tables in the one generated module).
inline constexpr uint32_t kMaxKernels = 1000;

}  // namespace helionc::limits
