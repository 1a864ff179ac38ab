// `--shapes` and `--shapes-file` (product.md §1): concrete argument shapes and dtypes for
// `--emit report` (and, later, `--autotune` and `--estimate`).
//
//   x=4096x4096:bf16,y=4096:bf16;x=1024x1024:f32,y=1024:f32
//
// `;` (or a new line, in a file) separates calls; a call lists `NAME=DIMS:DTYPE` for tensor
// arguments, DIMS being positive integers joined by `x` (empty for a 0-d tensor). Dtypes:
// bf16/bfloat16, f16/float16/half, f32/float32/float, i8/int8, u8/uint8, i16/int16,
// i32/int32/int, bool (the spellings of samples/*.shapes and tests/e2e). `#` starts a comment in
// a file. Errors are one precise sentence each (the driver prints them as usage errors).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/dtype.h"
#include "support/expected.h"

namespace helionc::driver {

struct TensorShape {
  std::string name;
  std::vector<int64_t> dims;
  ir::ScalarType dtype = ir::ScalarType::kFloat32;
};

struct ShapeSet {
  std::vector<TensorShape> tensors;  // in the order written
  std::string text;                  // the call as written (trimmed), for messages
};

// `origin` prefixes messages: "--shapes" or "FILE:LINE".
Expected<std::vector<ShapeSet>> parse_shapes(std::string_view text, std::string_view origin);
// A file: one or more calls per line (`;`-separated), `#` comments, blank lines.
Expected<std::vector<ShapeSet>> parse_shapes_file(std::string_view text, std::string_view path);

// `x=1024x1024:bf16` as written by the parser's conventions (short dtype names).
std::string format_shape_set(const ShapeSet& set);

}  // namespace helionc::driver
