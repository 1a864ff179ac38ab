#include "ir/mutator.h"

namespace helionc::ir {

ExprPtr Mutator::mutate(const ExprPtr& expr) {
  if (!expr) return expr;
  switch (expr->kind) {
#define HELIONC_EXPR(Name) \
  case ExprKind::k##Name:  \
    return mutate_node(static_cast<const Name&>(*expr), expr);
#include "ir/node_kinds.def"
  }
  return expr;
}

StmtPtr Mutator::mutate(const StmtPtr& stmt) {
  if (!stmt) return stmt;
  switch (stmt->kind) {
#define HELIONC_STMT(Name) \
  case StmtKind::k##Name:  \
    return mutate_node(static_cast<const Name&>(*stmt), stmt);
#include "ir/node_kinds.def"
  }
  return stmt;
}

Block Mutator::mutate(const Block& block) {
  Block result;
  result.reserve(block.size());
  for (const StmtPtr& stmt : block) {
    if (StmtPtr mutated = mutate(stmt)) result.push_back(std::move(mutated));
  }
  return result;
}

Index Mutator::mutate_index(const Index& index, bool* changed) {
  Index result = index;
  for (IndexItem& item : result) {
    if (!item.scalar) continue;
    ExprPtr scalar = mutate(item.scalar);
    if (scalar != item.scalar) *changed = true;
    item.scalar = std::move(scalar);
  }
  return result;
}

namespace {
bool same(const std::vector<ExprPtr>& a, const std::vector<ExprPtr>& b) { return a == b; }
bool same(const Block& a, const Block& b) { return a == b; }

template <typename Container, typename Fn>
Container map_all(const Container& items, Fn fn) {
  Container result;
  result.reserve(items.size());
  for (const auto& item : items) result.push_back(fn(item));
  return result;
}
}  // namespace

ExprPtr Mutator::mutate_node(const IntImm&, const ExprPtr& self) { return self; }
ExprPtr Mutator::mutate_node(const FloatImm&, const ExprPtr& self) { return self; }
ExprPtr Mutator::mutate_node(const BoolImm&, const ExprPtr& self) { return self; }
ExprPtr Mutator::mutate_node(const NoneImm&, const ExprPtr& self) { return self; }
ExprPtr Mutator::mutate_node(const StringImm&, const ExprPtr& self) { return self; }
ExprPtr Mutator::mutate_node(const DtypeImm&, const ExprPtr& self) { return self; }
ExprPtr Mutator::mutate_node(const VarRef&, const ExprPtr& self) { return self; }

ExprPtr Mutator::mutate_node(const Unary& node, const ExprPtr& self) {
  ExprPtr operand = mutate(node.operand);
  if (operand == node.operand) return self;
  return Unary::make(node.op, std::move(operand), node.type, node.range);
}

ExprPtr Mutator::mutate_node(const Binary& node, const ExprPtr& self) {
  ExprPtr lhs = mutate(node.lhs);
  ExprPtr rhs = mutate(node.rhs);
  if (lhs == node.lhs && rhs == node.rhs) return self;
  return Binary::make(node.op, std::move(lhs), std::move(rhs), node.type, node.range);
}

ExprPtr Mutator::mutate_node(const Compare& node, const ExprPtr& self) {
  ExprPtr lhs = mutate(node.lhs);
  ExprPtr rhs = mutate(node.rhs);
  if (lhs == node.lhs && rhs == node.rhs) return self;
  return Compare::make(node.op, std::move(lhs), std::move(rhs), node.type, node.range);
}

ExprPtr Mutator::mutate_node(const Call& node, const ExprPtr& self) {
  auto args = map_all(node.args, [&](const ExprPtr& arg) { return mutate(arg); });
  if (same(args, node.args)) return self;
  return Call::make(node.op, std::move(args), node.type, node.range);
}

ExprPtr Mutator::mutate_node(const Load& node, const ExprPtr& self) {
  bool changed = false;
  ExprPtr tensor = mutate(node.tensor);
  Index index = mutate_index(node.index, &changed);
  if (!changed && tensor == node.tensor) return self;
  return Load::make(std::move(tensor), std::move(index), node.type, node.range);
}

ExprPtr Mutator::mutate_node(const TupleExpr& node, const ExprPtr& self) {
  auto elements = map_all(node.elements, [&](const ExprPtr& e) { return mutate(e); });
  if (same(elements, node.elements)) return self;
  return TupleExpr::make(std::move(elements), node.type, node.range);
}

ExprPtr Mutator::mutate_node(const TupleGet& node, const ExprPtr& self) {
  ExprPtr tuple = mutate(node.tuple);
  if (tuple == node.tuple) return self;
  return TupleGet::make(std::move(tuple), node.index, node.type, node.range);
}

ExprPtr Mutator::mutate_node(const TileAttr&, const ExprPtr& self) { return self; }

StmtPtr Mutator::mutate_node(const Let& node, const StmtPtr& self) {
  ExprPtr value = mutate(node.value);
  if (value == node.value) return self;
  return node.unpack ? Let::make_unpack(node.targets, std::move(value), node.range)
                     : Let::make(node.targets.front(), std::move(value), node.range);
}

StmtPtr Mutator::mutate_node(const Alloc& node, const StmtPtr& self) {
  ExprPtr shape = mutate(node.shape);
  ExprPtr dtype = mutate(node.dtype);
  ExprPtr fill = mutate(node.fill);
  if (shape == node.shape && dtype == node.dtype && fill == node.fill) return self;
  return Alloc::make(node.target, std::move(shape), std::move(dtype), std::move(fill), node.range);
}

StmtPtr Mutator::mutate_node(const Store& node, const StmtPtr& self) {
  bool changed = false;
  ExprPtr tensor = mutate(node.tensor);
  Index index = mutate_index(node.index, &changed);
  ExprPtr value = mutate(node.value);
  if (!changed && tensor == node.tensor && value == node.value) return self;
  return Store::make(std::move(tensor), std::move(index), std::move(value), node.range,
                     node.accumulate);
}

StmtPtr Mutator::mutate_node(const TileLoop& node, const StmtPtr& self) {
  Block body = mutate(node.body);
  if (same(body, node.body)) return self;
  return TileLoop::make(node.tile_dims, node.loop_vars, std::move(body), node.range, node.carried);
}

StmtPtr Mutator::mutate_node(const StaticLoop& node, const StmtPtr& self) {
  ExprPtr begin = mutate(node.begin);
  ExprPtr end = mutate(node.end);
  ExprPtr step = mutate(node.step);
  Block body = mutate(node.body);
  if (begin == node.begin && end == node.end && step == node.step && same(body, node.body)) {
    return self;
  }
  return StaticLoop::make(node.var, std::move(begin), std::move(end), std::move(step),
                          std::move(body), node.carried, node.range);
}

StmtPtr Mutator::mutate_node(const If& node, const StmtPtr& self) {
  ExprPtr condition = mutate(node.condition);
  Block then_body = mutate(node.then_body);
  Block else_body = mutate(node.else_body);
  if (condition == node.condition && same(then_body, node.then_body) &&
      same(else_body, node.else_body)) {
    return self;
  }
  return If::make(std::move(condition), std::move(then_body), std::move(else_body), node.merges,
                  node.range, node.on_device);
}

StmtPtr Mutator::mutate_node(const Assert& node, const StmtPtr& self) {
  ExprPtr condition = mutate(node.condition);
  ExprPtr message = mutate(node.message);
  if (condition == node.condition && message == node.message) return self;
  return Assert::make(std::move(condition), std::move(message), node.range, node.implied);
}

StmtPtr Mutator::mutate_node(const Return& node, const StmtPtr& self) {
  auto values = map_all(node.values, [&](const ExprPtr& v) { return mutate(v); });
  if (same(values, node.values)) return self;
  return Return::make(std::move(values), node.range, node.tuple);
}

}  // namespace helionc::ir
