// IR expressions as jnp on whole arrays (plain Python and `math` for static scalars), with the
// parentheses Python needs (backend/pallas/py_expr.h, a formatting utility). A load is a slice
// of the whole array over each tile's range; nothing here knows about blocks.
#pragma once

#include <string>
#include <utility>

#include "backend/pallas/py_expr.h"
#include "backend/reference/function_state.h"
#include "ir/nodes.h"

namespace helionc::backend::reference {

using pallas::PyExpr;

class ExprWriter {
 public:
  explicit ExprWriter(FunctionState& state) : state_(state) {}

  PyExpr print(const ir::ExprPtr& expr);
  std::string text(const ir::ExprPtr& expr) { return print(expr).text; }
  // The subscript `[...]` of `tensor` for a store's index (a tile's range as a slice).
  std::string store_subscript(const ir::Store& store);
  // The shape tuple of a tile tensor type: a tile's `block_size` (its whole range), a whole
  // dimension's size, 1 for a new axis.
  std::string shape_of(const ir::Type& type, SourceRange range);

 private:
  PyExpr call(const ir::Call& node);
  PyExpr reduction(const ir::Call& node);
  // `printed` (a `where` of `node`) widened to the block on each axis where the frontend gave
  // a value over a stepped tile a registered block's size.
  PyExpr filled_blocks(const ir::Call& node, PyExpr printed);
  PyExpr shape_op(const ir::Call& node);
  PyExpr load(const ir::Load& node);
  PyExpr tile_attr(const ir::TileAttr& node);
  PyExpr var(const ir::VarRef& ref);
  // One subscript item, as written in a subscript (`a:b`) and in a tuple display
  // (`slice(a, b)`, which a spread variadic tile needs).
  struct Item {
    std::string in_subscript;
    std::string in_tuple;
  };
  Item item(const ir::IndexItem& entry, SourceRange range);
  // A bounded slice (Kernel::slices[slice]) as `a:b` and as `slice(a, b)`.
  std::pair<std::string, std::string> slice_bounds(int slice);
  // The subscript of `index` as Python; gathers are returned apart with their item positions
  // (a `:` in the text).
  struct Subscript {
    std::string text;  // "[a:b, :]" (empty items list: "[()]")
    std::vector<std::pair<size_t, ir::ExprPtr>> gathers;
    bool variadic = false;
  };
  Subscript subscript(const ir::Index& index, SourceRange range);
  PyExpr unsupported(const ir::Expr& expr, std::string what);

  FunctionState& state_;
  // Inside a scalar operand of arithmetic on arrays: a tile's block size is a number there.
  int numeric_ = 0;
};

}  // namespace helionc::backend::reference
