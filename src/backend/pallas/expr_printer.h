// Prints IR expressions as Python: jnp for arrays, plain Python (and `math`) for static
// scalars, with minimal parentheses (py_expr.h). What a name, a load or a query on a host tensor
// becomes depends on where the expression is printed (kernel body, host wrapper, index map),
// which is the job of an ExprContext.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>

#include "backend/pallas/py_expr.h"
#include "ir/nodes.h"
#include "passes/plan_padding.h"
#include "support/diagnostics.h"

namespace helionc::backend::pallas {

// Modules imported, and module-level helpers defined (templates/helper_<name>.py.tmpl), only
// when the generated code uses them.
struct OptionalImports {
  bool math = false;
  bool functools = false;
  bool numpy = false;             // callable parameters' tiles (helper_call_param.py.tmpl)
  std::set<std::string> helpers;  // "expm1", "sinh", ...
};

class ExprContext {
 public:
  virtual ~ExprContext() = default;
  // A use of a binding.
  virtual PyExpr var(const ir::VarRef& ref) = 0;
  // `x[...]` in device code; the host has none.
  virtual PyExpr load(const ir::Load& load) = 0;
  // Whether the expression is printed into a kernel body (device code).
  virtual bool in_kernel() const { return false; }
  // "file:line" of `range` for a trace-time message ("" where the context does not know it).
  virtual std::string where(const SourceRange& /*range*/) const { return ""; }
  // `x.dtype`, `x.size(0)`, `x.size()`, `x.numel()`, `x.dim()` of the tensor `tensor`.
  // Device code only (the defaults report "not supported"):
  // the shape of a block of values of type `dims`, as a tuple (`(block_m, 128)`);
  virtual std::optional<std::string> block_shape(const ir::Expr& expr);
  // `value`, the printed `operand` of a reduction, softmax or matrix product along `axis`,
  // masked where its block runs past the loop's range (`identity` fills the padding: "0", "1",
  // "lowest", "highest");
  virtual PyExpr masked_operand(const ir::Expr& operand, PyExpr value, int axis,
                                std::string_view identity);
  // what the padding of `operand`'s blocks along `axis` holds (passes/plan_padding.h), so
  // that reductions and products whose identity it already is need no mask;
  virtual passes::Pad padding(const ir::Expr& operand, int axis);
  // the number of valid elements along `axis` of a reduction's operand (for `mean`), or
  // nullopt when every element is valid;
  virtual std::optional<PyExpr> valid_count(const ir::Call& call, int axis);
  // `tile.index`, `tile.begin`, ...
  virtual std::optional<PyExpr> tile_attr(const ir::TileAttr& attr);
  // `tile.index` along `axis` of a block of `shape` (a tuple's text): an iota of that whole
  // shape, from the block's start (a random draw's counters, ExprPrinter::draw_counters).
  virtual std::optional<PyExpr> tile_index(int tile_dim, const std::string& shape, int axis);
  // Whether a random draw of `dims` takes its counters from full-shape iotas
  // (passes::draws_from_full_iotas).
  virtual bool full_iota_draw(const std::vector<ir::Dim>& dims);
  // `block, begin, extent` of a tile dimension's loop, for the trace-time check of a window's
  // rows (`_window(..., rows=...)`).
  virtual std::optional<std::string> block_rows(int tile_dim);
  // The value of `hl.register_tunable` number `index` (host code: the config's entry).
  virtual std::optional<PyExpr> tunable(int index);
  // The bindings held as lane rows (passes/plan_lane_rows.h); null where there are none.
  virtual const std::set<int>* lane_rows() const { return nullptr; }

  virtual PyExpr tensor_query(ir::Intrinsic op, const ir::VarRef& tensor,
                              const ir::ExprPtr& axis) = 0;
};

class ExprPrinter {
 public:
  ExprPrinter(const ir::Kernel& kernel, ExprContext& context, OptionalImports& imports,
              DiagnosticEngine& diags)
      : kernel_(kernel), context_(context), imports_(imports), diags_(diags) {}

  PyExpr print(const ir::ExprPtr& expr);
  std::string text(const ir::ExprPtr& expr) { return print(expr).text; }
  // `expr` as lane rows (passes::lane_row_value must accept it): the value of a binding the
  // schedule holds that way.
  PyExpr print_lane_rows(const ir::ExprPtr& expr);
  // Whether `expr` is lane rows computed from bindings held so (passes::reads_lane_rows).
  bool lane_row_value(const ir::Expr& expr) const;
  // A dtype-valued expression (`jnp.float32`, `x_ref.dtype`).
  PyExpr dtype(const ir::ExprPtr& expr) { return print(expr); }
  // False once an expression could not be printed (a diagnostic was reported).
  bool ok() const { return ok_; }
  // From now on `expr` (a loop-invariant part of a statement, computed before its loop:
  // passes/plan_hoists.h) prints as `name`, except inside a lane row's tree, whose parts are
  // printed in that layout.
  void name(const ir::Expr& expr, std::string name) { named_[&expr] = std::move(name); }
  // Prints `expr` again as itself (its loop is printed: the name may be out of scope).
  void unname(const ir::Expr& expr) { named_.erase(&expr); }

 private:
  PyExpr call(const ir::Call& call);
  PyExpr call_param(const ir::Call& call);
  PyExpr reduction(const ir::Call& call, bool keep_dims = false);
  PyExpr lane_rows_call(const ir::Call& call);
  PyExpr reduction_or_full(const ir::Call& call);
  std::optional<PyExpr> lane_tile_operand(const ir::Binary& node, const ir::Expr& operand);
  PyExpr row_values(const ir::Type& type, const PyExpr& rows);
  PyExpr dot(const ir::Call& call);
  PyExpr broadcast_operand(const ir::Expr& operand, PyExpr value, const ir::Expr& result);
  PyExpr shape_op(const ir::Call& call);
  bool maybe_mask(const ir::Expr& value) const;
  bool maybe_narrow(const ir::Expr& value) const;
  std::string_view narrow_compare(const ir::Compare& node) const;
  bool keeps_last_axis(const ir::Expr& value, const ir::Expr& result) const;
  PyExpr window(const ir::Call& call);
  PyExpr fit_block(const ir::Call& call);
  PyExpr draw_counters(const ir::ExprPtr& counters);
  std::optional<PyExpr> at_full_shape(const ir::ExprPtr& expr, const std::string& shape,
                                      size_t rank);

 public:
  PyExpr unsupported(const ir::Expr& expr, std::string what);

 private:
  static bool needs_scalar_opmath(const ir::Binary& node);
  static bool is_array(const ir::ExprPtr& expr);

  const ir::Kernel& kernel_;
  ExprContext& context_;
  OptionalImports& imports_;
  DiagnosticEngine& diags_;
  bool ok_ = true;
  // Printing the tree of a lane row (print_lane_rows): its names are used as they are held.
  bool lane_rows_mode_ = false;
  std::map<const ir::Expr*, std::string> named_;  // name()
};

}  // namespace helionc::backend::pallas
