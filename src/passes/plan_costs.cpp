#include "passes/plan_costs.h"

#include <algorithm>

namespace helionc::passes {

namespace {

using ir::Intrinsic;
using ir::TypeKind;

bool is_transcendental(Intrinsic op) {
  switch (op) {
    case Intrinsic::kExp:
    case Intrinsic::kExp2:
    case Intrinsic::kExpm1:
    case Intrinsic::kLog:
    case Intrinsic::kLog2:
    case Intrinsic::kLog10:
    case Intrinsic::kLog1p:
    case Intrinsic::kSqrt:
    case Intrinsic::kRsqrt:
    case Intrinsic::kSin:
    case Intrinsic::kCos:
    case Intrinsic::kTan:
    case Intrinsic::kTanh:
    case Intrinsic::kSinh:
    case Intrinsic::kCosh:
    case Intrinsic::kAsin:
    case Intrinsic::kAcos:
    case Intrinsic::kAtan:
    case Intrinsic::kSigmoid:
    case Intrinsic::kErf:
    case Intrinsic::kSilu:
    case Intrinsic::kGelu:
    case Intrinsic::kGeluTanh:
      return true;
    default:
      return false;
  }
}

// Floating-point work of one intrinsic per element (casts and creation cost nothing).
int flops_of(Intrinsic op) {
  switch (op) {
    case Intrinsic::kCast:
    case Intrinsic::kFullLike:
    case Intrinsic::kSize:
    case Intrinsic::kShapeOf:
    case Intrinsic::kNumel:
    case Intrinsic::kNdim:
    case Intrinsic::kDtypeOf:
    case Intrinsic::kPromoteTypes:
    case Intrinsic::kBroadcastTensors:
      return 0;
    case Intrinsic::kClamp:
    case Intrinsic::kSilu:
    case Intrinsic::kSigmoid:
      return 2;
    case Intrinsic::kGelu:
    case Intrinsic::kGeluTanh:
      return 4;
    default:
      return 1;
  }
}

void add_term(std::vector<CostTerm>& terms, const std::vector<ir::Dim>& dims, int64_t count) {
  if (count == 0) return;
  for (CostTerm& term : terms) {
    if (term.elements == dims) {
      term.count += count;
      return;
    }
  }
  terms.push_back({count, dims});
}

}  // namespace

void count_cost(const ir::Expr& expr, LaunchCost& cost) {
  if (expr.type.kind != TypeKind::kTileTensor) return;
  int flops = 0;
  bool transcendental = false;
  switch (expr.kind) {
    case ir::ExprKind::kUnary:
    case ir::ExprKind::kBinary:
    case ir::ExprKind::kCompare:
      flops = 1;
      break;
    case ir::ExprKind::kCall: {
      const auto& call = *expr.as<ir::Call>();
      const Intrinsic op = call.op;
      if (op == Intrinsic::kDot) {
        // 2 * M * N * K: a multiply and an add per result element and contracted index. A
        // contraction over a tile the result also has (a block-diagonal product) counts the
        // result only: a block's size is not a cost term.
        const auto* lhs = call.args[0].get();
        const auto axis = static_cast<size_t>(call.args[1]->as<ir::IntImm>()->value);
        std::vector<ir::Dim> dims = expr.type.dims;
        const ir::Dim& contracted = lhs->type.dims.at(axis);
        if (std::find(dims.begin(), dims.end(), contracted) == dims.end() ||
            contracted.kind == ir::Dim::Kind::kFull) {
          dims.push_back(contracted);
        }
        add_term(cost.flops, dims, 2);
        return;
      }
      flops = flops_of(op);
      transcendental = is_transcendental(op);
      break;
    }
    default:
      return;
  }
  add_term(cost.flops, expr.type.dims, flops);
  if (transcendental) add_term(cost.transcendentals, expr.type.dims, 1);
}

}  // namespace helionc::passes
