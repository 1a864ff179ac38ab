#include "ir/visitor.h"

namespace helionc::ir {

void Visitor::dispatch(const Expr& expr) {
  switch (expr.kind) {
#define HELIONC_EXPR(Name)                      \
  case ExprKind::k##Name:                       \
    visit_node(static_cast<const Name&>(expr)); \
    return;
#include "ir/node_kinds.def"
  }
}

void Visitor::dispatch(const Stmt& stmt) {
  switch (stmt.kind) {
#define HELIONC_STMT(Name)                      \
  case StmtKind::k##Name:                       \
    visit_node(static_cast<const Name&>(stmt)); \
    return;
#include "ir/node_kinds.def"
  }
}

void Visitor::visit_node(const IntImm&) {}
void Visitor::visit_node(const FloatImm&) {}
void Visitor::visit_node(const BoolImm&) {}
void Visitor::visit_node(const NoneImm&) {}
void Visitor::visit_node(const StringImm&) {}
void Visitor::visit_node(const DtypeImm&) {}
void Visitor::visit_node(const VarRef&) {}
void Visitor::visit_node(const Unary& node) { visit(node.operand); }
void Visitor::visit_node(const Binary& node) {
  visit(node.lhs);
  visit(node.rhs);
}
void Visitor::visit_node(const Compare& node) {
  visit(node.lhs);
  visit(node.rhs);
}
void Visitor::visit_node(const Call& node) {
  for (const ExprPtr& arg : node.args) visit(arg);
}
void Visitor::visit_node(const Load& node) {
  visit(node.tensor);
  visit_index(node.index);
}
void Visitor::visit_node(const TupleExpr& node) {
  for (const ExprPtr& element : node.elements) visit(element);
}
void Visitor::visit_node(const TupleGet& node) { visit(node.tuple); }
void Visitor::visit_node(const TileAttr&) {}

void Visitor::visit_node(const Let& node) { visit(node.value); }
void Visitor::visit_node(const Alloc& node) {
  visit(node.shape);
  visit(node.dtype);
  visit(node.fill);
}
void Visitor::visit_node(const Store& node) {
  visit(node.tensor);
  visit_index(node.index);
  visit(node.value);
}
void Visitor::visit_node(const TileLoop& node) { visit(node.body); }
void Visitor::visit_node(const StaticLoop& node) {
  visit(node.begin);
  visit(node.end);
  visit(node.step);
  visit(node.body);
}
void Visitor::visit_node(const If& node) {
  visit(node.condition);
  visit(node.then_body);
  visit(node.else_body);
}
void Visitor::visit_node(const Assert& node) {
  visit(node.condition);
  visit(node.message);
}
void Visitor::visit_node(const Return& node) {
  for (const ExprPtr& value : node.values) visit(value);
}

bool reads_kernel_values(const Kernel& kernel, const ExprPtr& expr) {
  if (!expr) return false;
  bool found = false;
  for_each_expr(Block{Return::make({expr}, expr->range)}, [&](const Expr& e) {
    if (e.kind == ExprKind::kTileAttr) found = true;
    if (const auto* ref = e.as<VarRef>()) {
      const auto origin = kernel.bindings[ref->binding].origin;
      found = found || origin == Binding::Origin::kDevice || origin == Binding::Origin::kLoopVar;
    }
  });
  return found;
}

bool bounds_in_kernel(const Kernel& kernel, const TileDim& dim) {
  // A bound read from a tensor is read in the kernel even where no outer tile indexes it
  // (`hl.tile(end[0])`): the host has no element values (they may be traced under jax.jit).
  return reads_kernel_values(kernel, dim.begin) || reads_kernel_values(kernel, dim.extent) ||
         bounds_from_tensors(dim);
}

bool bounds_from_tensors(const TileDim& dim) {
  auto from_tensor = [](const ExprPtr& bound) {
    return bound && bound->type.kind == TypeKind::kTileTensor;
  };
  return from_tensor(dim.begin) || from_tensor(dim.extent);
}

std::set<int> stored_tensors(const Block& block) {
  class Stores final : public Visitor {
   public:
    std::set<int> tensors;

   private:
    void visit_node(const Store& node) override {
      if (const auto* var = node.tensor->as<VarRef>()) tensors.insert(var->binding);
      Visitor::visit_node(node);
    }
    void visit_node(const Call& node) override {
      if (node.op == Intrinsic::kHostIndexSet) {
        if (const auto* var = node.args[0]->as<VarRef>()) tensors.insert(var->binding);
      }
      Visitor::visit_node(node);
    }
  } stores;
  stores.visit(block);
  return std::move(stores.tensors);
}

bool has_begin(const TileDim& dim) {
  if (!dim.begin) return false;
  const auto* imm = dim.begin->as<IntImm>();
  return imm == nullptr || imm->value != 0;
}

}  // namespace helionc::ir
