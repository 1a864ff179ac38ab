#include "passes/plan_costs.h"

#include <algorithm>
#include <optional>

namespace helionc::passes {

namespace {

using ir::TypeKind;

void add_term(int inner_loop, std::vector<CostTerm>& terms, const std::vector<ir::Dim>& dims,
              int64_t count, const std::optional<ProductShape>& product = std::nullopt) {
  if (count == 0) return;
  for (CostTerm& term : terms) {
    if (term.elements == dims && term.product == product && term.inner_loop == inner_loop) {
      term.count += count;
      return;
    }
  }
  terms.push_back({count, dims, product, inner_loop});
}

// Where a product's operand dtype comes from: the IR's type, else the tensor it is loaded from.
void operand_dtype(const ir::Expr& operand, ProductShape& shape) {
  shape.dtype = operand.type.dtype;
  if (shape.dtype) return;
  if (const auto* load = operand.as<ir::Load>()) {
    if (const auto* tensor = load->tensor->as<ir::VarRef>()) shape.dtype_binding = tensor->binding;
  }
}

}  // namespace

void count_cost(const ir::Expr& expr, LaunchCost& cost, int inner_loop) {
  const auto* sort = expr.as<ir::Call>();
  if (sort && sort->op == ir::Intrinsic::kSortLast) {
    // Each element is compared with, and selected against, every element of its axis.
    std::vector<ir::Dim> dims = sort->args[0]->type.dims;
    if (!dims.empty()) dims.push_back(dims.back());
    add_term(inner_loop, cost.flops, dims, ir::intrinsic_cost(sort->op).flops);
    return;
  }
  if (expr.type.kind != TypeKind::kTileTensor) return;
  switch (expr.kind) {
    case ir::ExprKind::kBinary:
      if (expr.as<ir::Binary>()->op == ir::BinaryOp::kDiv)
        add_term(inner_loop, cost.divisions, expr.type.dims, 1);
      add_term(inner_loop, cost.flops, expr.type.dims, 1);
      return;
    case ir::ExprKind::kUnary:
    case ir::ExprKind::kCompare:
      add_term(inner_loop, cost.flops, expr.type.dims, 1);
      return;
    case ir::ExprKind::kCall:
      break;
    default:
      return;
  }
  const auto& call = *expr.as<ir::Call>();
  const ir::IntrinsicCost per_element = ir::intrinsic_cost(call.op);
  std::vector<ir::Dim> dims;
  switch (per_element.basis) {
    case ir::IntrinsicCost::Basis::kNone:
      return;
    case ir::IntrinsicCost::Basis::kResult:
      dims = expr.type.dims;
      break;
    case ir::IntrinsicCost::Basis::kOperand:
      // A reduction works on every element it reduces: an m x n sum is m * n adds, not m.
      dims = call.args[0]->type.dims;
      break;
    case ir::IntrinsicCost::Basis::kProduct: {
      // 2 * M * N * K: a multiply and an add per result element and contracted index. A
      // contraction over a tile the result also has (a block-diagonal product) counts the
      // result only: a block's size is not a cost term.
      const auto axis = static_cast<size_t>(call.args[1]->as<ir::IntImm>()->value);
      dims = expr.type.dims;
      const ir::Dim& contracted = call.args[0]->type.dims.at(axis);
      if (std::find(dims.begin(), dims.end(), contracted) == dims.end() ||
          contracted.within_axis()) {
        dims.push_back(contracted);
      }
      ProductShape shape;
      const std::vector<ir::Dim>& result = expr.type.dims;
      shape.rows = result.size() >= 2 ? result[result.size() - 2] : ir::Dim::unit();
      shape.cols = result.empty() ? ir::Dim::unit() : result.back();
      shape.contracted = contracted;
      operand_dtype(*call.args[0], shape);
      add_term(inner_loop, cost.products, dims, per_element.flops, shape);
      break;
    }
  }
  add_term(inner_loop, cost.flops, dims, per_element.flops);
  add_term(inner_loop, cost.transcendentals, dims, per_element.transcendentals);
  add_term(inner_loop, cost.divisions, dims, per_element.divisions);
}

}  // namespace helionc::passes
