// 64-bit integer arithmetic that reports overflow instead of wrapping (signed overflow is
// undefined behaviour in C++). Sizes computed from user input (`--shapes`, literal shapes)
// go through these; nullopt means "the result does not fit".
#pragma once

#include <cstdint>
#include <limits>
#include <optional>

namespace helionc {

inline std::optional<int64_t> checked_add(int64_t a, int64_t b) {
  int64_t result = 0;
  if (__builtin_add_overflow(a, b, &result)) return std::nullopt;
  return result;
}

inline std::optional<int64_t> checked_sub(int64_t a, int64_t b) {
  int64_t result = 0;
  if (__builtin_sub_overflow(a, b, &result)) return std::nullopt;
  return result;
}

inline std::optional<int64_t> checked_mul(int64_t a, int64_t b) {
  int64_t result = 0;
  if (__builtin_mul_overflow(a, b, &result)) return std::nullopt;
  return result;
}

// floor(a / b), as Python's `//`; nullopt for b == 0 and for INT64_MIN // -1 (which overflows).
inline std::optional<int64_t> checked_floor_div(int64_t a, int64_t b) {
  if (b == 0 || (a == std::numeric_limits<int64_t>::min() && b == -1)) return std::nullopt;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// ceil(a / b) for b > 0, without forming a + b - 1 (which overflows near INT64_MAX); 0 for
// b <= 0, as the block arithmetic wants.
inline int64_t ceil_div(int64_t a, int64_t b) {
  if (b <= 0) return 0;
  const int64_t quotient = a / b;
  return quotient + ((a % b != 0 && a > 0) ? 1 : 0);
}

}  // namespace helionc
