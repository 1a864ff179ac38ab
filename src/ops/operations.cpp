#include "ops/operations.h"

#include <array>

namespace helionc::ops {

namespace {

constexpr std::array kOperations = {
#define HELIONC_OP(Enum, name, arity, dtype, spellings, jnp, mosaic, helpers, scalar, flops, \
                   transcendentals, divisions, facts)                                        \
  Operation{ir::Intrinsic::Enum,                                                             \
            name,                                                                            \
            arity,                                                                           \
            DtypeRule::dtype,                                                                \
            spellings,                                                                       \
            jnp,                                                                             \
            mosaic,                                                                          \
            helpers,                                                                         \
            scalar,                                                                          \
            {ir::IntrinsicCost::Basis::kResult, flops, transcendentals, divisions},          \
            facts},
#include "ops/operations.def"
};

// find() indexes the table by the enum, which ir/nodes.h begins with the same rows.
constexpr bool in_enum_order() {
  for (size_t i = 0; i < kOperations.size(); ++i) {
    if (static_cast<size_t>(kOperations[i].op) != i) return false;
  }
  return true;
}
static_assert(in_enum_order());

}  // namespace

Known Facts::apply(Known operand) const {
  switch (operand) {
    case Known::kNegInf:
      return at_neg_inf;
    case Known::kZero:
      return at_zero;
    case Known::kOne:
      return at_one;
    case Known::kPosInf:
      return at_pos_inf;
    case Known::kFinite:
      return at_finite;
    case Known::kUnknown:
      break;
  }
  return Known::kUnknown;
}

bool Operation::spelled(std::string_view spelling) const {
  bool found = false;
  for_each_word(spellings, [&](std::string_view word) { found = found || word == spelling; });
  return found;
}

std::span<const Operation> operations() { return kOperations; }

const Operation* find(ir::Intrinsic op) {
  // The table's rows are the enum's first values, in its order.
  const auto index = static_cast<size_t>(op);
  return index < kOperations.size() ? &kOperations[index] : nullptr;
}

const Operation* unary_function(std::string_view qualified_name) {
  for (const Operation& operation : kOperations) {
    if (operation.arity == 1 && operation.spelled(qualified_name)) return &operation;
  }
  return nullptr;
}

const Operation* unary_method(std::string_view method) {
  if (method.find('.') != std::string_view::npos) return nullptr;
  for (const Operation& operation : kOperations) {
    if (operation.arity != 1) continue;
    bool found = false;
    for_each_word(operation.spellings, [&](std::string_view word) {
      found = found || (word.starts_with("Tensor.") && word.substr(7) == method);
    });
    if (found) return &operation;
  }
  return nullptr;
}

}  // namespace helionc::ops
