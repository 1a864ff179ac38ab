// A read-only visitor over the tile IR. Every visit method recurses into the node's children by
// default, so a pass overrides only the kinds it cares about (Halide's IRVisitor habit).
#pragma once

#include <set>

#include "ir/nodes.h"

namespace helionc::ir {

class Visitor {
 public:
  virtual ~Visitor() = default;

  void visit(const ExprPtr& expr) {
    if (expr) dispatch(*expr);
  }
  void visit(const StmtPtr& stmt) {
    if (stmt) dispatch(*stmt);
  }
  void visit(const Block& block) {
    for (const StmtPtr& stmt : block) visit(stmt);
  }
  void visit_index(const Index& index) {
    for (const IndexItem& item : index) visit(item.scalar);
  }

#define HELIONC_EXPR(Name) virtual void visit_node(const Name& node);
#define HELIONC_STMT(Name) virtual void visit_node(const Name& node);
#include "ir/node_kinds.def"

 private:
  void dispatch(const Expr& expr);
  void dispatch(const Stmt& stmt);
};

// Calls `fn` on every expression in a block, in evaluation order (children first).
template <typename Fn>
void for_each_expr(const Block& block, Fn&& fn);
// The same over one expression and its children.
template <typename Fn>
void for_each_expr(const ExprPtr& expr, Fn&& fn);

// Whether `expr` (may be null) reads a value only device code has: a tile attribute, a value
// computed in a tile loop, or a loop variable.
bool reads_kernel_values(const Kernel& kernel, const ExprPtr& expr);

// The bindings of the tensors `block` stores into, at any depth: tile stores and host index
// assignments (`x[0] = v`).
std::set<int> stored_tensors(const Block& block);

// Whether a tile dimension's bounds are known only in the kernel: they move with an outer tile
// (`hl.tile(0, tile_m.end)`) or are read from tensors (`hl.tile(end[0])`).
bool bounds_in_kernel(const Kernel& kernel, const TileDim& dim);

// Whether a tile dimension's bounds are read from tensors (`hl.tile(offsets[g], offsets[g + 1])`,
// jagged and ragged loops): they differ from one outer step to the next, so the blocks of
// different outer steps overlap.
bool bounds_from_tensors(const TileDim& dim);

// Whether a tile dimension starts elsewhere than 0 (`hl.tile(a, b)`, `hl.grid(a, b)`): its
// blocks are numbered from the array's start, and its first block may be partial.
bool has_begin(const TileDim& dim);

}  // namespace helionc::ir

#include "ir/visitor_inl.h"
