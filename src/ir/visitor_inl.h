// Template helpers of visitor.h.
#pragma once

namespace helionc::ir {

namespace detail {
template <typename Fn>
class ExprCallback final : public Visitor {
 public:
  explicit ExprCallback(Fn& fn) : fn_(fn) {}
#define HELIONC_EXPR(Name)                     \
  void visit_node(const Name& node) override { \
    Visitor::visit_node(node);                 \
    fn_(static_cast<const Expr&>(node));       \
  }
#include "ir/node_kinds.def"

 private:
  Fn& fn_;
};
}  // namespace detail

template <typename Fn>
void for_each_expr(const Block& block, Fn&& fn) {
  detail::ExprCallback<Fn> callback(fn);
  callback.visit(block);
}

template <typename Fn>
void for_each_expr(const ExprPtr& expr, Fn&& fn) {
  detail::ExprCallback<Fn> callback(fn);
  callback.visit(expr);
}

}  // namespace helionc::ir
