// A callable parameter whose result is stored directly into a fresh output runs on the host,
// after the kernel (hoist_callables.h). Why: a callable may read arrays it closes over
// (`lambda acc, tile: acc + bias[tile[1]]`), which a Pallas kernel body cannot read, and its
// `bias[tile]` would be a gather Mosaic cannot lower; on the host both are plain jnp. The
// result is the kernel's with one block spanning each loop, which a kernel whose result does
// not depend on its block sizes computes for every config. The form is chosen here, when
// compiling, from the source alone:
//   - the store is a statement of a launch's own body (not in an inner loop or an `if`), the
//     only store into a tensor allocated by the kernel before the launch and used nowhere else
//     up to the launch's end, indexed by exactly the launch's tiles in order;
//   - each of those tiles covers the allocation's axis: it starts at 0 and ends at the axis's
//     size (the same name or number), with a tunable block;
//   - the call's arguments are one tile value of exactly those tiles, of a known dtype, and
//     the launch's tiles (in tuples too).
#include "frontend/hoist_callables.h"

#include <set>

#include "ir/visitor.h"

namespace helionc::frontend {

namespace {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

int uses_of(const ir::Block& block, int binding) {
  int count = 0;
  ir::for_each_expr(block, [&](const ir::Expr& expr) {
    if (const auto* ref = expr.as<ir::VarRef>(); ref && ref->binding == binding) ++count;
  });
  return count;
}

// The stores into `binding` anywhere in `block`.
int stores_into(const ir::Block& block, int binding) {
  struct Stores final : ir::Visitor {
    int binding = -1;
    int count = 0;
    void visit_node(const ir::Store& store) override {
      const auto* ref = store.tensor->as<ir::VarRef>();
      count += ref && ref->binding == binding;
      ir::Visitor::visit_node(store);
    }
  } stores;
  stores.binding = binding;
  stores.visit(block);
  return stores.count;
}

bool same_size(const ExprPtr& a, const ExprPtr& b) {
  if (!a || !b) return false;
  if (const auto* x = a->as<ir::VarRef>()) {
    const auto* y = b->as<ir::VarRef>();
    return y && x->binding == y->binding;
  }
  if (const auto* x = a->as<ir::IntImm>()) {
    const auto* y = b->as<ir::IntImm>();
    return y && x->value == y->value;
  }
  return false;
}

const ir::Call* as_call(const ExprPtr& expr, Intrinsic op) {
  const auto* call = expr ? expr->as<ir::Call>() : nullptr;
  return call && call->op == op ? call : nullptr;
}

// The call's arguments rebuilt for the host (`value` for the one tile value, whole-axis tiles
// for the launch's tiles), or null when one is something else.
ExprPtr host_arguments(const ir::Kernel& kernel, const ExprPtr& arg, const ExprPtr& value,
                       const std::vector<int>& tile_dims, int& values) {
  if (arg->type.kind == TypeKind::kTileTensor) {
    ++values;
    return value;
  }
  if (const ir::Call* tile = as_call(arg, Intrinsic::kCallTile)) {
    const auto* begin = tile->args[0]->as<ir::TileAttr>();
    if (!begin) return nullptr;
    bool ours = false;
    for (int dim : tile_dims) ours |= dim == begin->tile_dim;
    if (!ours) return nullptr;
    const ExprPtr& extent = kernel.tile_dims[begin->tile_dim].extent;
    const ExprPtr zero = ir::IntImm::make(0, arg->range);
    return ir::Call::make(Intrinsic::kCallTile,
                          {zero, extent, extent, zero, ir::NoneImm::make(arg->range)}, arg->type,
                          arg->range);
  }
  if (const auto* tuple = arg->as<ir::TupleExpr>()) {
    std::vector<ExprPtr> elements;
    for (const ExprPtr& element : tuple->elements) {
      elements.push_back(host_arguments(kernel, element, value, tile_dims, values));
      if (!elements.back()) return nullptr;
    }
    return ir::TupleExpr::make(std::move(elements), arg->type, arg->range);
  }
  return nullptr;
}

struct Hoist {
  size_t alloc = 0;     // the allocation's statement
  size_t launch = 0;    // the launch's statement
  size_t store = 0;     // the store, in the launch's body
  ExprPtr host_value;   // the call and the casts around it, on the host (before the store's)
  int value_dtype = 0;  // ir::ScalarType of the stored tile value
};

std::optional<Hoist> plan(const ir::Kernel& kernel, size_t launch_at, size_t store_at) {
  const auto& launch = *kernel.body[launch_at]->as<ir::TileLoop>();
  const auto* store = launch.body[store_at]->as<ir::Store>();
  if (!store) return std::nullopt;
  // The value: casts around a call of a callable parameter.
  std::vector<const ir::Call*> casts;
  ExprPtr value = store->value;
  while (const ir::Call* cast = as_call(value, Intrinsic::kCast)) {
    casts.push_back(cast);
    value = cast->args[0];
  }
  const ir::Call* call = as_call(value, Intrinsic::kCallParam);
  const auto* out = store->tensor->as<ir::VarRef>();
  if (!call || !out || store->index.size() != launch.tile_dims.size()) return std::nullopt;
  for (size_t i = 0; i < store->index.size(); ++i) {
    const ir::IndexItem& item = store->index[i];
    if (item.kind != ir::IndexItem::Kind::kTile || item.tile_dim != launch.tile_dims[i]) {
      return std::nullopt;
    }
  }
  // The output: allocated before the launch, used nowhere else up to the launch's end.
  std::optional<size_t> alloc_at;
  for (size_t i = 0; i < launch_at; ++i) {
    const auto* alloc = kernel.body[i]->as<ir::Alloc>();
    if (alloc && alloc->target == out->binding) alloc_at = i;
  }
  if (!alloc_at) return std::nullopt;
  const auto& alloc = *kernel.body[*alloc_at]->as<ir::Alloc>();
  const ir::Block before(kernel.body.begin() + static_cast<long>(*alloc_at),
                         kernel.body.begin() + static_cast<long>(launch_at) + 1);
  if (uses_of(before, out->binding) != 1) return std::nullopt;  // the store's own
  // After the launch the name is the host call's result, which no kernel writes.
  if (stores_into(kernel.body, out->binding) != 1) return std::nullopt;
  // The tiles cover the allocation's axes.
  const auto* shape = alloc.shape->as<ir::TupleExpr>();
  if (!shape || shape->elements.size() != launch.tile_dims.size()) return std::nullopt;
  for (size_t i = 0; i < launch.tile_dims.size(); ++i) {
    const ir::TileDim& dim = kernel.tile_dims[launch.tile_dims[i]];
    if (dim.begin || dim.variadic || dim.jagged || dim.merged ||
        dim.block.kind != ir::BlockSource::Kind::kTunable ||
        !same_size(dim.extent, shape->elements[i])) {
      return std::nullopt;
    }
  }
  // The arguments: one tile value of exactly the launch's tiles, of a known dtype, and tiles.
  const ExprPtr& arguments = call->args[1];
  const ExprPtr* tile_value = nullptr;
  for (const ExprPtr& arg : arguments->as<ir::TupleExpr>()->elements) {
    if (arg->type.kind == TypeKind::kTileTensor && !tile_value) tile_value = &arg;
  }
  if (!tile_value || !(*tile_value)->type.dtype) return std::nullopt;
  const Type& value_type = (*tile_value)->type;
  if (value_type.dims.size() != launch.tile_dims.size()) return std::nullopt;
  for (size_t i = 0; i < value_type.dims.size(); ++i) {
    if (value_type.dims[i] != ir::Dim::tile(launch.tile_dims[i])) return std::nullopt;
  }
  const int rank = static_cast<int>(launch.tile_dims.size());
  const Type whole = Type::tensor(rank, value_type.dtype);
  // Filled in by the caller with the intermediate's binding.
  Hoist hoist;
  hoist.alloc = *alloc_at;
  hoist.launch = launch_at;
  hoist.store = store_at;
  hoist.value_dtype = static_cast<int>(*value_type.dtype);
  int values = 0;
  const ExprPtr placeholder = ir::VarRef::make(out->binding, whole, (*tile_value)->range);
  ExprPtr host_args = host_arguments(kernel, arguments, placeholder, launch.tile_dims, values);
  if (!host_args || values != 1) return std::nullopt;
  ExprPtr host = ir::Call::make(Intrinsic::kCallParam, {call->args[0], host_args, call->args[2]},
                                whole, call->range);
  for (auto it = casts.rbegin(); it != casts.rend(); ++it) {
    const ir::Call& cast = **it;
    host = ir::Call::make(Intrinsic::kCast, {host, cast.args[1]},
                          Type::tensor(rank, cast.type.dtype), cast.range);
  }
  hoist.host_value = host;
  return hoist;
}

// `expr` with every use of `from` replaced by `to`.
ExprPtr rebind(const ExprPtr& expr, int from, const ExprPtr& to) {
  if (const auto* ref = expr->as<ir::VarRef>(); ref && ref->binding == from) return to;
  if (const auto* call = expr->as<ir::Call>()) {
    std::vector<ExprPtr> args;
    for (const ExprPtr& arg : call->args) args.push_back(rebind(arg, from, to));
    return ir::Call::make(call->op, std::move(args), call->type, call->range);
  }
  if (const auto* tuple = expr->as<ir::TupleExpr>()) {
    std::vector<ExprPtr> elements;
    for (const ExprPtr& element : tuple->elements) elements.push_back(rebind(element, from, to));
    return ir::TupleExpr::make(std::move(elements), tuple->type, tuple->range);
  }
  return expr;
}

}  // namespace

void hoist_callable_stores(ir::Kernel& kernel) {
  for (size_t at = 0; at < kernel.body.size(); ++at) {
    const ir::StmtPtr launch_stmt = kernel.body[at];  // kept alive while it is replaced
    const auto* launch = launch_stmt->as<ir::TileLoop>();
    if (!launch) continue;
    for (size_t s = 0; s < launch->body.size(); ++s) {
      std::optional<Hoist> hoist = plan(kernel, at, s);
      if (!hoist) continue;
      // The output's allocation becomes the intermediate's (a new binding of the same name,
      // in the stored value's dtype); the output's binding is the host call's result.
      const ir::StmtPtr alloc_stmt = kernel.body[hoist->alloc];
      const auto& alloc = *alloc_stmt->as<ir::Alloc>();
      const auto& store = *launch->body[s]->as<ir::Store>();
      const int out = alloc.target;
      const ir::Binding binding = kernel.bindings[out];
      const auto dtype = static_cast<ir::ScalarType>(hoist->value_dtype);
      const int rank = static_cast<int>(launch->tile_dims.size());
      const int staged = static_cast<int>(kernel.bindings.size());
      kernel.bindings.push_back(
          {binding.name, Type::tensor(rank, dtype), binding.origin, binding.range});
      const ExprPtr staged_ref = ir::VarRef::make(staged, Type::tensor(rank, dtype), store.range);
      kernel.body[hoist->alloc] = ir::Alloc::make(
          staged, alloc.shape, ir::DtypeImm::make(dtype, alloc.range), alloc.fill, alloc.range);
      // The launch stores the tile value itself.
      ExprPtr stored = store.value;
      while (const ir::Call* cast = as_call(stored, Intrinsic::kCast)) stored = cast->args[0];
      ExprPtr tile_value;
      for (const ExprPtr& arg : stored->as<ir::Call>()->args[1]->as<ir::TupleExpr>()->elements) {
        if (arg->type.kind == TypeKind::kTileTensor) {
          tile_value = arg;
          break;
        }
      }
      ir::Block body = launch->body;
      body[s] = ir::Store::make(staged_ref, store.index, tile_value, store.range);
      kernel.body[at] = ir::TileLoop::make(launch->tile_dims, launch->loop_vars, std::move(body),
                                           launch->range, launch->carried);
      // After the launch: out = cast(call(staged, whole tiles), out's dtype).
      ExprPtr host = rebind(hoist->host_value, out, staged_ref);
      host = ir::Call::make(Intrinsic::kCast, {host, alloc.dtype}, binding.type, store.range);
      kernel.body.insert(kernel.body.begin() + static_cast<long>(at) + 1,
                         ir::Let::make(out, host, store.range));
      break;  // the output is used once in the launch: no other store to it there
    }
  }
}

}  // namespace helionc::frontend
