#include "passes/plan_gathers.h"

namespace helionc::passes {

using ir::ExprPtr;
using ir::IndexItem;
using ir::Intrinsic;
using ir::TypeKind;

namespace {

// The expression a device name was bound to in the body (`flat = base + col`), else `expr`.
const ExprPtr& device_value(const ExprPtr& expr, const std::map<int, ExprPtr>& device_values) {
  const auto* ref = expr->as<ir::VarRef>();
  if (ref == nullptr) return expr;
  auto it = device_values.find(ref->binding);
  return it == device_values.end() ? expr : device_value(it->second, device_values);
}

// The 2-D array `x` of a flat view `flat = x.view(-1)` / `x.reshape(-1)`, or -1.
int flat_pick_base(const ir::Kernel& kernel, const ShapeFacts& facts, int binding) {
  const ir::Stmt* def = facts.definition(binding);
  const auto* let = def ? def->as<ir::Let>() : nullptr;
  if (let == nullptr || let->targets.size() != 1) return -1;
  const auto* call = let->value->as<ir::Call>();
  if (call == nullptr || call->op != Intrinsic::kReshape || call->args.empty()) return -1;
  const auto* base = call->args[0]->as<ir::VarRef>();
  if (base == nullptr || kernel.bindings[base->binding].type.rank != 2 ||
      kernel.bindings[binding].type.rank != 1) {
    return -1;
  }
  return base->binding;
}

}  // namespace

std::optional<FlatPick> flat_pick(const ir::Kernel& kernel, const ShapeFacts& facts, int binding,
                                  const ir::Index& index,
                                  const std::map<int, ExprPtr>& device_values,
                                  const std::map<int, int>& grid_axis) {
  if (index.size() != 1 || index[0].kind != IndexItem::Kind::kGather) return std::nullopt;
  const int base = flat_pick_base(kernel, facts, binding);
  if (base < 0) return std::nullopt;
  const auto* sum = device_value(index[0].scalar, device_values)->as<ir::Binary>();
  if (sum == nullptr || sum->op != ir::BinaryOp::kAdd) return std::nullopt;
  for (const auto& [rows, col] : {std::pair{sum->lhs, sum->rhs}, std::pair{sum->rhs, sum->lhs}}) {
    const auto* product = device_value(rows, device_values)->as<ir::Binary>();
    if (product == nullptr || product->op != ir::BinaryOp::kMul) continue;
    for (const auto& [attr_expr, stride] :
         {std::pair{product->lhs, product->rhs}, std::pair{product->rhs, product->lhs}}) {
      const auto* attr = device_value(attr_expr, device_values)->as<ir::TileAttr>();
      if (attr == nullptr || attr->attr != ir::TileAttrKind::kIndex ||
          !grid_axis.count(attr->tile_dim) || stride->type.kind != TypeKind::kInt ||
          !(facts.size_of(stride) == facts.axis_size(base, 1))) {
        continue;
      }
      const ir::Type& col_type = col->type;
      if (col_type.kind != TypeKind::kTileTensor || col_type.dims.size() != 1 ||
          col_type.dims[0] != ir::Dim::tile(attr->tile_dim)) {
        continue;
      }
      IndexItem tile;
      tile.kind = IndexItem::Kind::kTile;
      tile.tile_dim = attr->tile_dim;
      tile.range = index[0].range;
      IndexItem gather = index[0];
      gather.scalar = col;
      return FlatPick{base, ir::Index{tile, gather}};
    }
  }
  return std::nullopt;
}

}  // namespace helionc::passes
