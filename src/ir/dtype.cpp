#include "ir/dtype.h"

#include <algorithm>
#include <array>
#include <utility>

namespace helionc::ir {

std::string_view dtype_name(ScalarType type) {
  switch (type) {
    case ScalarType::kBool:
      return "bool";
    case ScalarType::kUInt8:
      return "uint8";
    case ScalarType::kInt8:
      return "int8";
    case ScalarType::kInt16:
      return "int16";
    case ScalarType::kInt32:
      return "int32";
    case ScalarType::kFloat8E4M3FN:
      return "float8_e4m3fn";
    case ScalarType::kFloat8E5M2:
      return "float8_e5m2";
    case ScalarType::kFloat16:
      return "float16";
    case ScalarType::kBFloat16:
      return "bfloat16";
    case ScalarType::kFloat32:
      return "float32";
  }
  return "?";
}

namespace {
constexpr ScalarType kLastScalarType = ScalarType::kFloat32;
}  // namespace

std::optional<ScalarType> dtype_from_name(std::string_view name) {
  for (int i = 0; i <= static_cast<int>(kLastScalarType); ++i) {
    if (dtype_name(static_cast<ScalarType>(i)) == name) return static_cast<ScalarType>(i);
  }
  return std::nullopt;
}

std::string dtype_names() {
  std::string names;
  for (int i = 0; i <= static_cast<int>(kLastScalarType); ++i) {
    if (i > 0) names += ", ";
    names += dtype_name(static_cast<ScalarType>(i));
  }
  return names;
}

std::string_view jnp_dtype(ScalarType type) {
  switch (type) {
    case ScalarType::kBool:
      return "jnp.bool_";
    case ScalarType::kUInt8:
      return "jnp.uint8";
    case ScalarType::kInt8:
      return "jnp.int8";
    case ScalarType::kInt16:
      return "jnp.int16";
    case ScalarType::kInt32:
      return "jnp.int32";
    case ScalarType::kFloat8E4M3FN:
      return "jnp.float8_e4m3fn";
    case ScalarType::kFloat8E5M2:
      return "jnp.float8_e5m2";
    case ScalarType::kFloat16:
      return "jnp.float16";
    case ScalarType::kBFloat16:
      return "jnp.bfloat16";
    case ScalarType::kFloat32:
      return "jnp.float32";
  }
  return "?";
}

int dtype_bits(ScalarType type) {
  switch (type) {
    case ScalarType::kBool:
    case ScalarType::kUInt8:
    case ScalarType::kInt8:
    case ScalarType::kFloat8E4M3FN:
    case ScalarType::kFloat8E5M2:
      return 8;
    case ScalarType::kInt16:
    case ScalarType::kFloat16:
    case ScalarType::kBFloat16:
      return 16;
    case ScalarType::kInt32:
    case ScalarType::kFloat32:
      return 32;
  }
  return 32;
}

bool is_floating(ScalarType type) {
  return is_float8(type) || type == ScalarType::kFloat16 || type == ScalarType::kBFloat16 ||
         type == ScalarType::kFloat32;
}

bool is_float8(ScalarType type) {
  return type == ScalarType::kFloat8E4M3FN || type == ScalarType::kFloat8E5M2;
}

ScalarType device_dtype(ScalarType type) {
  return type == ScalarType::kFloat16 ? ScalarType::kFloat32 : type;
}

bool is_integral(ScalarType type) { return !is_floating(type) && type != ScalarType::kBool; }

std::optional<ScalarType> torch_dtype_from_attr(std::string_view attr) {
  static constexpr std::array<std::pair<std::string_view, ScalarType>, 14> kNames = {{
      {"float32", ScalarType::kFloat32},
      {"float", ScalarType::kFloat32},
      {"bfloat16", ScalarType::kBFloat16},
      {"float16", ScalarType::kFloat16},
      {"half", ScalarType::kFloat16},
      {"int32", ScalarType::kInt32},
      {"int", ScalarType::kInt32},
      {"int16", ScalarType::kInt16},
      {"short", ScalarType::kInt16},
      {"int8", ScalarType::kInt8},
      {"uint8", ScalarType::kUInt8},
      {"bool", ScalarType::kBool},
      {"float8_e4m3fn", ScalarType::kFloat8E4M3FN},
      {"float8_e5m2", ScalarType::kFloat8E5M2},
  }};
  for (const auto& [name, type] : kNames) {
    if (name == attr) return type;
  }
  return std::nullopt;
}

bool is_64bit_torch_dtype(std::string_view attr) {
  static constexpr std::array<std::string_view, 8> kNames = {
      "int64", "long", "float64", "double", "uint64", "complex64", "complex128", "cdouble"};
  return std::find(kNames.begin(), kNames.end(), attr) != kNames.end();
}

namespace {

// Rank within a category, following torch's promotion lattice for the types we support.
int category(ScalarType type) {
  if (type == ScalarType::kBool) return 0;
  if (is_integral(type)) return 1;
  return 2;
}

}  // namespace

ScalarType promote(ScalarType a, ScalarType b) {
  if (a == b) return a;
  if (category(a) != category(b)) return category(a) > category(b) ? a : b;
  if (category(a) == 2) {
    // float16 with bfloat16 has no common 16-bit type: PyTorch gives float32. An 8-bit float
    // with another float has none either (PyTorch and JAX refuse; arithmetic on them is an
    // error in the frontend): products take float32, which holds every 8-bit value.
    if (a == ScalarType::kFloat32 || b == ScalarType::kFloat32) return ScalarType::kFloat32;
    return ScalarType::kFloat32;
  }
  // Integers: uint8 with a signed type needs the next wider signed type.
  const bool a_unsigned = a == ScalarType::kUInt8;
  const bool b_unsigned = b == ScalarType::kUInt8;
  if (a_unsigned || b_unsigned) {
    const ScalarType other = a_unsigned ? b : a;
    if (other == ScalarType::kInt8) return ScalarType::kInt16;
    return other;
  }
  return dtype_bits(a) >= dtype_bits(b) ? a : b;
}

}  // namespace helionc::ir
