// `hl.arange(end)`, `hl.arange(start, end, step)` and, in device code, `torch.arange` with the
// same arguments: `start + step * iota(count)`, whose element count ceil((end - start) / step)
// must name a dimension (a tile's block, a tensor's whole axis, a number). The count is found
// from linear forms of the bounds over the sizes they read (`tile.begin * 2` to
// `(tile.begin + tile.block_size) * 2` in steps of 2 is one block), so it needs no computed
// sizes; the start is any int the kernel knows then (a tile's begin, a number).
#include <fmt/format.h>

#include <functional>
#include <map>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::ScalarType;
using ir::Type;
using ir::TypeKind;

namespace {

// An int as a number plus whole multiples of sizes. A term is keyed by what it reads: a
// tile's attribute ("t<dim>.<attr>"), a tensor's size ("s<binding>.<axis>") or another int
// binding ("v<binding>"); `dims` keeps the dimension a term with coefficient 1 names, if any.
struct Linear {
  int64_t number = 0;
  std::map<std::string, int64_t> terms;
  std::map<std::string, Dim> dims;
};

void add_scaled(Linear& into, const Linear& part, int64_t scale) {
  into.number += scale * part.number;
  for (const auto& [key, coefficient] : part.terms) {
    into.terms[key] += scale * coefficient;
    if (into.terms[key] == 0) into.terms.erase(key);
  }
  for (const auto& [key, dim] : part.dims) into.dims.emplace(key, dim);
}

}  // namespace

ExprPtr KernelLowering::make_arange(const CallArgs& args, std::string_view shown) {
  const SourceRange range = args.call.range();
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  check_arity(args, shown, 1, 3,
              {"start", "end", "step", "dtype", "device", "layout", "requires_grad", "pin_memory"});
  // (end), (start, end), (start, end, step); `step=` and `end=` by keyword too.
  SyntaxNode start_node, end_node, step_node;
  if (args.positional.size() >= 2) {
    start_node = args.positional[0];
    end_node = args.positional[1];
    if (args.positional.size() == 3) step_node = args.positional[2];
  } else if (args.positional.size() == 1) {
    end_node = args.positional[0];
    if (const SyntaxNode end = args.keyword("end")) {
      start_node = end_node;
      end_node = end;
    }
  }
  if (!start_node) start_node = args.keyword("start");
  if (!end_node) end_node = args.keyword("end");
  if (!step_node) step_node = args.keyword("step");
  if (!end_node) {
    fail(DiagnosticKind::kWrongArity, range, fmt::format("`{}` needs an end", shown));
  }
  const ExprPtr start = start_node ? lower_expr(start_node) : ir::IntImm::make(0, range);
  const ExprPtr end = lower_expr(end_node);
  const ExprPtr step = step_node ? lower_expr(step_node) : ir::IntImm::make(1, range);
  for (const ExprPtr& bound : {start, end, step}) {
    if (bound->type.kind != TypeKind::kInt && bound->type.kind != TypeKind::kTile) {
      fail(DiagnosticKind::kTypeMismatch, bound->range,
           fmt::format("`{}` takes ints, not `{}`", shown, ir::type_to_string(bound->type)));
    }
  }
  const auto* step_imm = resolve_host_size(step)->as<ir::IntImm>();
  if (!step_imm || step_imm->value < 1) {
    fail(DiagnosticKind::kUnsupported, step->range,
         fmt::format("`{}` with a step other than a positive number is not supported yet", shown));
  }

  // The linear form of an int, or nullopt for one that is none (a product of two sizes, a
  // division, a value loaded from a tensor).
  std::function<std::optional<Linear>(const ExprPtr&)> linear =
      [&](const ExprPtr& value) -> std::optional<Linear> {
    Linear form;
    if (value->type.kind == TypeKind::kTile && value->type.tile_dims.size() == 1 &&
        !value->type.variadic) {
      // A tile as a size is its block size.
      const int dim = value->type.tile_dims[0];
      const std::string key = fmt::format("t{}.block_size", dim);
      form.terms[key] = 1;
      form.dims.emplace(key, Dim::tile(dim));
      return form;
    }
    if (const auto* imm = value->as<ir::IntImm>()) {
      form.number = imm->value;
      return form;
    }
    if (const auto* ref = value->as<ir::VarRef>()) {
      if (auto found = device_ints_.find(ref->binding); found != device_ints_.end()) {
        return linear(found->second);
      }
      if (auto found = host_sizes_.find(ref->binding); found != host_sizes_.end()) {
        return linear(found->second);
      }
      if (value->type.kind != TypeKind::kInt) return std::nullopt;
      form.terms[fmt::format("v{}", ref->binding)] = 1;
      return form;
    }
    if (const auto* attr = value->as<ir::TileAttr>()) {
      const std::string key = fmt::format("t{}.{}", attr->tile_dim, ir::tile_attr_name(attr->attr));
      form.terms[key] = 1;
      if (attr->attr == ir::TileAttrKind::kBlockSize)
        form.dims.emplace(key, Dim::tile(attr->tile_dim));
      return form;
    }
    if (const auto* call = value->as<ir::Call>(); call && call->op == Intrinsic::kSize) {
      const auto* tensor = call->args[0]->as<ir::VarRef>();
      const auto* axis = call->args[1]->as<ir::IntImm>();
      if (!tensor || !axis) return std::nullopt;
      const int rank = kernel_.bindings[tensor->binding].type.rank;
      int64_t a = axis->value;
      if (rank >= 0) {
        if (a >= rank || a < -rank) return std::nullopt;
        if (a < 0) a += rank;
      }
      const std::string key = fmt::format("s{}.{}", tensor->binding, a);
      form.terms[key] = 1;
      form.dims.emplace(key, Dim::full(tensor->binding, static_cast<int>(a)));
      return form;
    }
    if (const auto* binary = value->as<ir::Binary>()) {
      const auto lhs = linear(binary->lhs);
      const auto rhs = linear(binary->rhs);
      if (!lhs || !rhs) return std::nullopt;
      switch (binary->op) {
        case ir::BinaryOp::kAdd:
        case ir::BinaryOp::kSub:
          add_scaled(form, *lhs, 1);
          add_scaled(form, *rhs, binary->op == ir::BinaryOp::kAdd ? 1 : -1);
          return form;
        case ir::BinaryOp::kMul:
          if (lhs->terms.empty()) {
            add_scaled(form, *rhs, lhs->number);
            return form;
          }
          if (rhs->terms.empty()) {
            add_scaled(form, *lhs, rhs->number);
            return form;
          }
          return std::nullopt;
        default:
          return std::nullopt;
      }
    }
    return std::nullopt;
  };

  // The count: (end - start) / step must be a number or one size exactly.
  std::optional<Dim> count;
  const auto start_form = linear(start);
  const auto end_form = linear(end);
  if (start_form && end_form) {
    Linear span;
    add_scaled(span, *end_form, 1);
    add_scaled(span, *start_form, -1);
    const int64_t by = step_imm->value;
    if (span.terms.empty() && span.number > 0) {
      const int64_t elements = (span.number + by - 1) / by;
      count = elements == 1 ? Dim::unit() : Dim::literal(elements);
    } else if (span.terms.size() == 1 && span.number == 0 && span.terms.begin()->second == by &&
               span.dims.count(span.terms.begin()->first)) {
      count = span.dims.at(span.terms.begin()->first);
    }
  }
  const auto* zero_start = start->as<ir::IntImm>();
  if (!count && step_imm->value == 1 && zero_start && zero_start->value == 0) {
    // `hl.arange(n // 2)`: a length computed from sizes is a dimension of its own, checked
    // against the others it meets while JAX traces (Dim::Kind::kComputed).
    count = named_size_dim(resolve_host_size(end), end_node);
  }
  if (!count) {
    // At the length when it is the only argument (`hl.arange(n // 2)`), else at the call.
    const bool only_end = !start_node && !step_node;
    fail(DiagnosticKind::kUnsupported, only_end ? end_node.range() : range,
         fmt::format("`{}` whose element count ((end - start) / step) is not `tile.block_size`, a "
                     "tensor's `size(d)`, a number or a host int computed from sizes (`n // 2`) "
                     "is not supported yet (every dimension of a tile value is one of those; a "
                     "count computed in device code is none)",
                     shown));
  }

  ExprPtr dtype = ir::DtypeImm::make(ScalarType::kInt32, range);
  if (const SyntaxNode node = args.keyword("dtype")) dtype = lower_dtype_expr(node);
  const auto* imm = dtype->as<ir::DtypeImm>();
  if (imm && imm->dtype == ScalarType::kBool) {
    fail(DiagnosticKind::kTypeMismatch, dtype->range,
         fmt::format("`{}` makes numbers, not bools", shown));
  }
  ExprPtr length = size_expr(kernel_, *count, range);
  ExprPtr value = ir::Call::make(
      Intrinsic::kArange, {std::move(length), dtype},
      Type::tile_tensor({*count}, imm ? std::optional(imm->dtype) : std::nullopt), range);
  // start + step * iota, in the arange's dtype (a Python int does not widen a tile's dtype).
  if (step_imm->value != 1) value = make_binary(ir::BinaryOp::kMul, step, value, range);
  if (!zero_start || zero_start->value != 0)
    value = make_binary(ir::BinaryOp::kAdd, start, value, range);
  return value;
}

}  // namespace helionc::frontend
