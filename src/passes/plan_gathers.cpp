#include "passes/plan_gathers.h"

#include <algorithm>

namespace helionc::passes {

using ir::ExprPtr;
using ir::IndexItem;
using ir::Intrinsic;
using ir::TypeKind;

namespace {

// The expression a device name was bound to in the body (`flat = base + col`), else `expr`.
const ir::Expr* device_value(const ExprPtr& expr, const std::map<int, ExprPtr>& device_values) {
  const auto* ref = expr->as<ir::VarRef>();
  if (ref == nullptr) return expr.get();
  auto it = device_values.find(ref->binding);
  return it == device_values.end() ? expr.get() : device_value(it->second, device_values);
}

// The 2-D array `x` of a flat view `flat = x.view(-1)` / `x.reshape(-1)`, or -1.
int flat_pick_base(const ir::Kernel& kernel, const ShapeFacts& facts, int binding) {
  const ir::Stmt* def = facts.definition(binding);
  const auto* let = def ? def->as<ir::Let>() : nullptr;
  if (let == nullptr || let->unpack) return -1;
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

namespace {

// The launch's own grid dimension `tile_dim` (not an inner loop's), or nullptr.
const GridDim* own_grid_dim(const Launch& launch, int tile_dim) {
  for (const GridDim& dim : launch.grid) {
    if (dim.tile_dim == tile_dim) return dim.inner_loop < 0 ? &dim : nullptr;
  }
  return nullptr;
}

bool written_by(const Launch& launch, int binding) {
  return std::any_of(launch.outputs.begin(), launch.outputs.end(),
                     [&](const Output& output) { return output.operand.binding == binding; });
}

// `ids[tile_b]`: a load of a 1-D integer input at one tile of the launch's own loop.
const ir::Load* ids_load(const ir::Kernel& kernel, const Launch& launch, const ExprPtr& index) {
  const auto* load = index->as<ir::Load>();
  if (load == nullptr || load->index.size() != 1 || load->index[0].kind != IndexItem::Kind::kTile ||
      own_grid_dim(launch, load->index[0].tile_dim) == nullptr) {
    return nullptr;
  }
  const auto* ref = load->tensor->as<ir::VarRef>();
  if (ref == nullptr || written_by(launch, ref->binding)) return nullptr;
  const ir::Binding& ids = kernel.bindings[ref->binding];
  if (ids.origin != ir::Binding::Origin::kParam && ids.origin != ir::Binding::Origin::kHost) {
    return nullptr;
  }
  // An index array's dtype may be known only at trace time.
  if (ids.type.variadic || ids.type.rank != 1 ||
      (ids.type.dtype && !ir::is_integral(*ids.type.dtype))) {
    return nullptr;
  }
  return load;
}

}  // namespace

std::vector<DmaGather> dma_gathers(const ir::Kernel& kernel, const Launch& launch) {
  std::vector<DmaGather> found;
  if (launch.variadic) return found;
  for (size_t i = 0; i < launch.inputs.size(); ++i) {
    const Input& input = launch.inputs[i];
    const Operand& operand = input.operand;
    if (input.kind != Input::Kind::kRead || operand.smem || operand.variadic || operand.reshaped ||
        operand.view.size() != 2 || kernel.bindings[operand.binding].type.rank != 2) {
      continue;
    }
    const ViewAxis& rows = operand.view[0];
    const ViewAxis& columns = operand.view[1];
    if (!rows.gather || rows.squeezed || columns.squeezed || columns.gather) continue;
    const bool columns_ok =
        columns.kind == ViewAxis::Kind::kFull ||
        (columns.kind == ViewAxis::Kind::kTile && own_grid_dim(launch, columns.tile_dim));
    if (!columns_ok) continue;
    const ir::Load* ids = ids_load(kernel, launch, rows.gather);
    if (ids == nullptr) continue;
    DmaGather gather;
    gather.input = static_cast<int>(i);
    gather.axis = 0;
    gather.ids_binding = ids->tensor->as<ir::VarRef>()->binding;
    gather.ids_index = ids->index;
    gather.range = ids->range;
    gather.tile_dims.push_back(ids->index[0].tile_dim);
    if (columns.kind == ViewAxis::Kind::kTile) gather.tile_dims.push_back(columns.tile_dim);
    found.push_back(std::move(gather));
  }
  return found;
}

}  // namespace helionc::passes
