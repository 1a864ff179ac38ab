#include "driver/shapes.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>
#include <utility>

#include "support/checked_int.h"

namespace helionc::driver {

namespace {

struct DtypeSpelling {
  std::string_view name;
  ir::ScalarType type;
};

constexpr DtypeSpelling kDtypes[] = {
    {"bf16", ir::ScalarType::kBFloat16},
    {"bfloat16", ir::ScalarType::kBFloat16},
    {"f16", ir::ScalarType::kFloat16},
    {"float16", ir::ScalarType::kFloat16},
    {"half", ir::ScalarType::kFloat16},
    {"f8e4m3", ir::ScalarType::kFloat8E4M3FN},
    {"float8_e4m3fn", ir::ScalarType::kFloat8E4M3FN},
    {"f8e5m2", ir::ScalarType::kFloat8E5M2},
    {"float8_e5m2", ir::ScalarType::kFloat8E5M2},
    {"f32", ir::ScalarType::kFloat32},
    {"float32", ir::ScalarType::kFloat32},
    {"float", ir::ScalarType::kFloat32},
    {"i8", ir::ScalarType::kInt8},
    {"int8", ir::ScalarType::kInt8},
    {"u8", ir::ScalarType::kUInt8},
    {"uint8", ir::ScalarType::kUInt8},
    {"i16", ir::ScalarType::kInt16},
    {"int16", ir::ScalarType::kInt16},
    {"i32", ir::ScalarType::kInt32},
    {"int32", ir::ScalarType::kInt32},
    {"int", ir::ScalarType::kInt32},
    {"bool", ir::ScalarType::kBool},
};

constexpr std::string_view k64Bit[] = {"f64",   "float64", "double", "i64",
                                       "int64", "long",    "u64",    "uint64"};

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

bool is_identifier(std::string_view name) {
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  return !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0])) &&
         std::all_of(name.begin(), name.end(), ident);
}

// A parameter (`x`), or an element of a list, tuple or dict parameter (`xs.0`, `d.key`).
bool is_parameter_name(std::string_view name) {
  const size_t dot = name.find('.');
  if (dot == std::string_view::npos) return is_identifier(name);
  const std::string_view element = name.substr(dot + 1);
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  return is_identifier(name.substr(0, dot)) && !element.empty() &&
         std::all_of(element.begin(), element.end(), ident);
}

std::string_view short_name(ir::ScalarType type) {
  switch (type) {
    case ir::ScalarType::kBFloat16:
      return "bf16";
    case ir::ScalarType::kFloat16:
      return "f16";
    case ir::ScalarType::kFloat8E4M3FN:
      return "f8e4m3";
    case ir::ScalarType::kFloat8E5M2:
      return "f8e5m2";
    case ir::ScalarType::kFloat32:
      return "f32";
    case ir::ScalarType::kInt8:
      return "i8";
    case ir::ScalarType::kUInt8:
      return "u8";
    case ir::ScalarType::kInt16:
      return "i16";
    case ir::ScalarType::kInt32:
      return "i32";
    case ir::ScalarType::kBool:
      return "bool";
  }
  return "f32";
}

// 1 TiB: more than any TPU's memory (a v7x chip has 192 GiB of HBM), and small enough that the
// report's products of sizes (bytes, flops over a grid) stay far inside 64 bits.
constexpr int64_t kMaxArrayBytes = int64_t{1} << 40;

bool fits_a_tpu(const TensorShape& tensor) {
  std::optional<int64_t> bytes = std::max(ir::dtype_bits(tensor.dtype) / 8, 1);
  for (int64_t dim : tensor.dims) {
    bytes = checked_mul(*bytes, dim);
    if (!bytes || *bytes > kMaxArrayBytes) return false;
  }
  return true;
}

constexpr std::string_view kForm = "NAME=DIMS:DTYPE, e.g. `x=4096x4096:bf16`";

Expected<TensorShape> parse_tensor(std::string_view item, std::string_view origin) {
  const size_t eq = item.find('=');
  if (eq == std::string_view::npos) {
    return Error{fmt::format("{}: `{}` has no `=`; write {}", origin, item, kForm)};
  }
  TensorShape tensor;
  tensor.name = std::string(trim(item.substr(0, eq)));
  if (!is_parameter_name(tensor.name)) {
    return Error{
        fmt::format("{}: `{}` is not a parameter name (in `{}`)", origin, tensor.name, item)};
  }
  const std::string_view rest = item.substr(eq + 1);
  const size_t colon = rest.rfind(':');
  if (colon == std::string_view::npos) {
    return Error{fmt::format("{}: `{}` has no dtype; write {}", origin, item, kForm)};
  }
  const std::string_view dims = trim(rest.substr(0, colon));
  const std::string_view dtype = trim(rest.substr(colon + 1));
  if (!dims.empty()) {
    size_t start = 0;
    while (true) {
      const size_t end = dims.find('x', start);
      const std::string_view dim = trim(dims.substr(start, end - start));
      int64_t value = 0;
      const auto [ptr, ec] = std::from_chars(dim.data(), dim.data() + dim.size(), value);
      if (dim.empty() || ec != std::errc() || ptr != dim.data() + dim.size() || value <= 0) {
        return Error{
            fmt::format("{}: dimension `{}` of `{}` is not a positive integer "
                        "(dimensions are joined by `x`, e.g. `4096x4096`)",
                        origin, dim, tensor.name)};
      }
      tensor.dims.push_back(value);
      if (end == std::string_view::npos) break;
      start = end + 1;
    }
  }
  for (const DtypeSpelling& spelling : kDtypes) {
    if (spelling.name == dtype) {
      tensor.dtype = spelling.type;
      if (!fits_a_tpu(tensor)) {
        return Error{
            fmt::format("{}: `{}` ({}) would take more than {} bytes; no TPU array is "
                        "that large",
                        origin, tensor.name, item, kMaxArrayBytes)};
      }
      return tensor;
    }
  }
  if (std::find(std::begin(k64Bit), std::end(k64Bit), dtype) != std::end(k64Bit)) {
    return Error{fmt::format("{}: dtype `{}` of `{}` is 64-bit; TPUs have no 64-bit types", origin,
                             dtype, tensor.name)};
  }
  return Error{
      fmt::format("{}: unknown dtype `{}` for `{}`; expected bf16, f16, f32, i8, u8, "
                  "i16, i32 or bool",
                  origin, dtype, tensor.name)};
}

Expected<ShapeSet> parse_set(std::string_view call, std::string_view origin) {
  ShapeSet set;
  set.text = std::string(trim(call));
  size_t start = 0;
  while (start <= call.size()) {
    const size_t end = call.find(',', start);
    const std::string_view item =
        trim(call.substr(start, end == std::string_view::npos ? end : end - start));
    if (!item.empty()) {
      Expected<TensorShape> tensor = parse_tensor(item, origin);
      if (!tensor) return Error{tensor.error()};
      for (const TensorShape& other : set.tensors) {
        if (other.name == tensor->name) {
          return Error{
              fmt::format("{}: `{}` is given twice in `{}`", origin, other.name, set.text)};
        }
      }
      set.tensors.push_back(std::move(*tensor));
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  // Only commas (`,` or `, ,`): a call with no tensors, which no kernel call could be (found by
  // fuzzing: it printed back as an empty string).
  if (set.tensors.empty()) {
    return Error{fmt::format("{}: `{}` names no tensors; write {}", origin, set.text, kForm)};
  }
  return set;
}

}  // namespace

Expected<std::vector<ShapeSet>> parse_shapes(std::string_view text, std::string_view origin) {
  std::vector<ShapeSet> sets;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t end = text.find(';', start);
    const std::string_view call =
        text.substr(start, end == std::string_view::npos ? end : end - start);
    if (!trim(call).empty()) {
      Expected<ShapeSet> set = parse_set(call, origin);
      if (!set) return Error{set.error()};
      sets.push_back(std::move(*set));
    }
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  if (sets.empty()) {
    return Error{fmt::format("{}: no shapes given; write {}", origin, kForm)};
  }
  return sets;
}

Expected<std::vector<ShapeSet>> parse_shapes_file(std::string_view text, std::string_view path) {
  std::vector<ShapeSet> sets;
  size_t line_start = 0;
  int line = 1;
  while (line_start < text.size()) {
    size_t line_end = text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view content = text.substr(line_start, line_end - line_start);
    content = content.substr(0, content.find('#'));
    if (!trim(content).empty()) {
      Expected<std::vector<ShapeSet>> parsed =
          parse_shapes(content, fmt::format("{}:{}", path, line));
      if (!parsed) return Error{parsed.error()};
      for (ShapeSet& set : *parsed) sets.push_back(std::move(set));
    }
    line_start = line_end + 1;
    ++line;
  }
  if (sets.empty()) return Error{fmt::format("{}: no shapes in the file", path)};
  return sets;
}

std::string format_shape_set(const ShapeSet& set) {
  std::vector<std::string> items;
  for (const TensorShape& tensor : set.tensors) {
    std::vector<std::string> dims;
    for (int64_t dim : tensor.dims) dims.push_back(std::to_string(dim));
    items.push_back(
        fmt::format("{}={}:{}", tensor.name, fmt::join(dims, "x"), short_name(tensor.dtype)));
  }
  return fmt::format("{}", fmt::join(items, ","));
}

}  // namespace helionc::driver
