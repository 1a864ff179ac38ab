// The table of elementwise operations (operations.def) as the passes, the frontend and the
// printers read it: one row per operation, looked up by intrinsic or by source spelling.
#pragma once

#include <optional>
#include <span>
#include <string_view>

#include "ir/nodes.h"

namespace helionc::ops {

// How an operation types its result.
enum class DtypeRule {
  kFloatMath,  // integers become float32 (exp, sqrt, sigmoid, ...)
  kSame,       // keeps the input dtype (abs, floor, relu, ...)
  kBool,       // isnan
  kPromote,    // the operands' promoted dtype (maximum, minimum)
};

// What an operation's result is known to be, for operands that are all one kind of value.
enum class Known {
  kUnknown,  // anything, NaN and infinities included
  kFinite,
  kZero,
  kOne,
  kNegInf,
  kPosInf,
};

// What a unary operation does to -inf, 0, 1, +inf and to finite values: the facts the padding
// analysis (passes/plan_padding.cpp: what a partial block's padding becomes, and whether valid
// elements may be infinite) and the skip analysis (passes/plan_skips.cpp: which steps of a
// causal loop change nothing) use. kUnknown is always safe.
struct Facts {
  Known at_neg_inf = Known::kUnknown;
  Known at_zero = Known::kUnknown;
  Known at_one = Known::kUnknown;
  Known at_pos_inf = Known::kUnknown;
  Known at_finite = Known::kUnknown;  // for every finite operand
  // What the operation does to a value known to be `operand`.
  Known apply(Known operand) const;
};

// The presets the table's `facts` column names.
inline constexpr Facts kNoFacts{};
// exp, exp2: exp(-inf) = 0, exp(0) = 1, finite stays finite, +inf stays +inf.
inline constexpr Facts kExpFacts{Known::kZero, Known::kOne, Known::kFinite, Known::kPosInf,
                                 Known::kFinite};
// relu, abs, square: 0 stays 0, finite stays finite.
inline constexpr Facts kKeepsZero{Known::kUnknown, Known::kZero, Known::kUnknown, Known::kUnknown,
                                  Known::kFinite};

struct Operation {
  ir::Intrinsic op;
  std::string_view name;  // the IR's
  int arity;
  DtypeRule dtype;
  std::string_view spellings;  // source names, separated by spaces
  std::string_view jnp;        // on arrays
  std::string_view mosaic;     // in the Pallas module where Mosaic cannot lower `jnp`; or empty
  std::string_view helpers;    // the helper templates `mosaic` needs, separated by spaces
  std::string_view scalar;     // on numbers; "array": `jnp`'s
  ir::IntrinsicCost cost;
  Facts facts;

  // Whether Python spells the operation on numbers other than as on arrays.
  bool has_scalar_form() const { return scalar != "array"; }
  // Whether `spelling` (`torch.exp`, `Tensor.exp`) names this operation.
  bool spelled(std::string_view spelling) const;
};

// Every row, in the table's order.
std::span<const Operation> operations();
// The row of `op`, or nullptr for an intrinsic that is no elementwise operation.
const Operation* find(ir::Intrinsic op);
// The unary operation a source name lowers to by the table (`torch.exp`, `torch.special.expit`,
// `torch.nn.functional.relu`), or nullptr.
const Operation* unary_function(std::string_view qualified_name);
// The unary operation a tensor method lowers to (`exp` for `x.exp()`), or nullptr.
const Operation* unary_method(std::string_view method);

// Each space-separated word of `words` in order (the `spellings` and `helpers` columns).
template <typename F>
void for_each_word(std::string_view words, F&& f) {
  while (!words.empty()) {
    const size_t end = words.find(' ');
    f(words.substr(0, end));
    if (end == std::string_view::npos) break;
    words.remove_prefix(end + 1);
  }
}

}  // namespace helionc::ops
