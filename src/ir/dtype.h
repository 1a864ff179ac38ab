// Element types. TPUs have no 64-bit types: `torch.int64`/`torch.float64` are recognised only so
// the frontend can reject them with a precise message.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace helionc::ir {

// kFloat8E4M3FN and kFloat8E5M2 are the OCP 8-bit floats (`torch.float8_e4m3fn`,
// `torch.float8_e5m2`; `jnp.float8_e4m3fn`, `jnp.float8_e5m2`), which TPUs hold in memory and
// multiply on the MXU.
enum class ScalarType {
  kBool,
  kUInt8,
  kInt8,
  kInt16,
  kInt32,
  kFloat8E4M3FN,
  kFloat8E5M2,
  kFloat16,
  kBFloat16,
  kFloat32
};

// "float32" (the name jnp, numpy and our YAML use).
std::string_view dtype_name(ScalarType type);
// The type whose dtype_name is `name` (only those names: "float32", not "float"), if any.
std::optional<ScalarType> dtype_from_name(std::string_view name);
// Every dtype_name, in ScalarType order, joined by ", " (for diagnostics).
std::string dtype_names();
// "jnp.float32".
std::string_view jnp_dtype(ScalarType type);
int dtype_bits(ScalarType type);
bool is_floating(ScalarType type);
bool is_integral(ScalarType type);  // bool excluded
bool is_float8(ScalarType type);

// The dtype a TPU kernel holds values of `type` in: float16 becomes float32, since Mosaic has
// no float16 vectors on any TPU generation (no loads, stores or conversions); every other type
// is itself. The generated module converts float16 arrays at the launch boundary (prelude
// `_device_dtype`, `_pallas_call`); VMEM holds them at 4 bytes an element.
ScalarType device_dtype(ScalarType type);

// The result of `torch.<attr>` as a dtype: "float32", "float", "bfloat16", "half", "int32",
// "int", "bool", "float8_e4m3fn", ... nullopt when `attr` is not a 32-bit-or-narrower dtype name.
std::optional<ScalarType> torch_dtype_from_attr(std::string_view attr);
// True for the 64-bit names (`int64`, `long`, `float64`, `double`, `complex128`, ...).
bool is_64bit_torch_dtype(std::string_view attr);

// PyTorch's promotion between two known tensor dtypes (torch.promote_types). An 8-bit float
// with another float, which PyTorch and JAX refuse to promote, gives float32 (for products).
ScalarType promote(ScalarType a, ScalarType b);

}  // namespace helionc::ir
