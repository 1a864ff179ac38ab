// `hl.atomic_add(target, index, value)` and the other `hl.atomic_*` functions.
//
// On a TPU the grid runs in order on one core per parallel slice, and a block of an output is
// only ever updated by the steps that own it, so an atomic update is a plain read-modify-write:
// the old block is read, combined with the value and stored back (`old = target[index]`,
// `target[index] = combine(old, value)`), and the call's value is the old block, as Helion's is.
// Steps that update one block from several grid steps (the axes the index does not name, such as
// the split of K in a split-K matmul) are the planner's business: it keeps those axes innermost
// and in order and reads the block back from the output (plan_launches, "revisited outputs").
// The memory-ordering argument `sem=` therefore changes nothing here; its value is still checked
// as Helion checks it. Through a tile of indices (`hl.atomic_add(out, [ids[tile]], v)`) several
// elements of one update may name one element of the target: `hl.atomic_add` is then a
// scatter-add (ir::Store::accumulate; the backend adds with a one-hot, README "Decisions worth
// knowing"), the other functions are refused.
#include <array>
#include <string>

#include <fmt/format.h>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

constexpr std::string_view kPrefix = "helion.language.atomic_";

// How each function combines the old block with its operands.
enum class Combine { kAdd, kAnd, kOr, kXor, kMax, kMin, kExchange, kCompareExchange };

struct AtomicFunction {
  std::string_view name;  // after `atomic_`
  Combine combine;
};

constexpr std::array<AtomicFunction, 8> kAtomics = {{
    {"add", Combine::kAdd},
    {"and", Combine::kAnd},
    {"or", Combine::kOr},
    {"xor", Combine::kXor},
    {"max", Combine::kMax},
    {"min", Combine::kMin},
    {"xchg", Combine::kExchange},
    {"cas", Combine::kCompareExchange},
}};

const AtomicFunction* atomic_function(std::string_view qualified) {
  if (qualified.rfind(kPrefix, 0) != 0) return nullptr;
  const std::string_view name = qualified.substr(kPrefix.size());
  for (const AtomicFunction& fn : kAtomics) {
    if (fn.name == name) return &fn;
  }
  return nullptr;
}

}  // namespace

bool KernelLowering::is_atomic_call(const SyntaxNode& node) const {
  if (node.type() != "call") return false;
  const auto qualified = imports_.qualified_name(node.child_by_field("function"));
  return qualified && qualified->rfind(kPrefix, 0) == 0;
}

ExprPtr KernelLowering::lower_atomic(const SyntaxNode& call, bool value_used, ir::Block& out) {
  const SourceRange range = call.range();
  const std::string qualified =
      imports_.qualified_name(call.child_by_field("function")).value_or("");
  const std::string shown(call.child_by_field("function").text());
  const AtomicFunction* fn = atomic_function(qualified);
  if (fn == nullptr) {
    fail(DiagnosticKind::kUnknownFunction, call.child_by_field("function").range(),
         fmt::format("`{}` is not supported by helionc", shown));
  }
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  const CallArgs args = split_args(call);
  const bool cas = fn->combine == Combine::kCompareExchange;
  const size_t operands = cas ? 4 : 3;
  check_arity(args, shown, operands, operands + 1, {"sem"});
  if (const SyntaxNode sem = argument(args, operands, "sem")) {
    const std::optional<std::string_view> text = plain_string(sem);
    if (!text ||
        (*text != "relaxed" && *text != "acquire" && *text != "release" && *text != "acq_rel")) {
      fail(DiagnosticKind::kBadArgument, sem.range(),
           "`sem` must be one of \"relaxed\", \"acquire\", \"release\" and \"acq_rel\"");
    }
  }

  ExprPtr tensor = lower_expr(args.positional[0]);
  const auto* var = tensor->as<ir::VarRef>();
  if (!var || binding(var->binding).type.kind != TypeKind::kTensor) {
    fail(DiagnosticKind::kTypeMismatch, args.positional[0].range(),
         fmt::format("`{}` updates a tensor", shown));
  }
  if (binding(var->binding).origin == ir::Binding::Origin::kDevice) {
    unsupported(args.positional[0].range(), "updating a tensor created in device code");
  }
  std::vector<ir::Dim> dims;
  ir::Index index = lower_index_items(var->binding, index_list(args.positional[1]),
                                      args.positional[1].range(), &dims);
  const Type block_type = Type::tile_tensor(dims, binding(var->binding).type.dtype);
  for (const ir::IndexItem& item : index) {
    if (item.kind != ir::IndexItem::Kind::kGather) continue;
    // A scatter's read-modify-write would lose all but one update of a repeated index: an add
    // is a scatter-add (ir::Store::accumulate), where every element of the value adds.
    if (fn->combine != Combine::kAdd) {
      unsupported(item.range, fmt::format("`hl.atomic_{}` through a tile of indices (a scatter "
                                          "whose repeated indices must combine; only "
                                          "`hl.atomic_add` does so here)",
                                          fn->name));
    }
    if (value_used) {
      // Each update's old value would depend on the order the repeated indices add in.
      unsupported(range,
                  "using the value of `hl.atomic_add` through a tile of indices (the "
                  "old values, which depend on the order the repeated indices add in)");
    }
    append_store(std::move(tensor), std::move(index), dims, lower_expr(args.positional[2]), range,
                 args.positional[0].text(), out,
                 /*accumulate=*/true);
    return nullptr;
  }
  // Two reads of the same block: one is the call's value, one feeds the update. Both come
  // before the store, so both see the old contents.
  ExprPtr old_value = ir::Load::make(tensor, index, block_type, range);
  ExprPtr old_for_update = ir::Load::make(tensor, index, block_type, range);
  ExprPtr value = lower_expr(args.positional[cas ? 3 : 2]);

  ExprPtr updated;
  switch (fn->combine) {
    case Combine::kAdd:
      updated = make_binary(ir::BinaryOp::kAdd, old_for_update, value, range);
      break;
    case Combine::kAnd:
      updated = make_binary(ir::BinaryOp::kBitAnd, old_for_update, value, range);
      break;
    case Combine::kOr:
      updated = make_binary(ir::BinaryOp::kBitOr, old_for_update, value, range);
      break;
    case Combine::kXor:
      updated = make_binary(ir::BinaryOp::kBitXor, old_for_update, value, range);
      break;
    case Combine::kMax:
    case Combine::kMin: {
      Type type = combine_types(*old_for_update, *value, ArithKind::kArithmetic, range);
      updated =
          ir::Call::make(fn->combine == Combine::kMax ? Intrinsic::kMaximum : Intrinsic::kMinimum,
                         {old_for_update, value}, std::move(type), range);
      break;
    }
    case Combine::kExchange:
      updated = value;
      break;
    case Combine::kCompareExchange: {
      // The new value where the old one equals `expected`, else the old one.
      ExprPtr expected = lower_expr(args.positional[2]);
      ExprPtr equal = make_compare(ir::CompareOp::kEq, old_for_update, expected, range);
      Type type = combine_types(*value, *old_for_update, ArithKind::kArithmetic, range);
      updated =
          ir::Call::make(Intrinsic::kWhere, {equal, value, old_for_update}, std::move(type), range);
      break;
    }
  }
  int result = -1;
  if (value_used) {
    result = bind_hidden(fmt::format("{}_old", binding(var->binding).name), block_type,
                         ir::Binding::Origin::kDevice, range);
    out.push_back(ir::Let::make(result, old_value, range));
  }
  append_store(std::move(tensor), std::move(index), dims, std::move(updated), range,
               args.positional[0].text(), out);
  return value_used ? ref(result, range) : nullptr;
}

}  // namespace helionc::frontend
