#include "passes/kept_blocks.h"

#include <set>

#include "ir/visitor.h"

namespace helionc::passes {

namespace {

// The tile dimensions whose `tile.begin` or `tile.end` a scalar index of a load or store reads.
class ScalarIndexBounds final : public ir::Visitor {
 public:
  bool reads(int tile_dim) const {
    return tile_dim < 0 ? !dims_.empty() : dims_.count(tile_dim) > 0;
  }

 protected:
  void visit_node(const ir::Load& node) override {
    note(node.index);
    Visitor::visit_node(node);
  }
  void visit_node(const ir::Store& node) override {
    note(node.index);
    Visitor::visit_node(node);
  }

 private:
  void note(const ir::Index& index) {
    for (const ir::IndexItem& item : index) {
      if (item.kind != ir::IndexItem::Kind::kScalar) continue;
      ir::for_each_expr(item.scalar, [&](const ir::Expr& expr) {
        const auto* attr = expr.as<ir::TileAttr>();
        if (attr &&
            (attr->attr == ir::TileAttrKind::kBegin || attr->attr == ir::TileAttrKind::kEnd)) {
          dims_.insert(attr->tile_dim);
        }
      });
    }
  }

  std::set<int> dims_;
};

}  // namespace

bool reads_block_numbering(const ir::Kernel& kernel, int tile_dim) {
  bool reads = false;
  ir::for_each_expr(kernel.body, [&](const ir::Expr& expr) {
    if (const auto* attr = expr.as<ir::TileAttr>()) {
      reads |= (attr->attr == ir::TileAttrKind::kId || attr->attr == ir::TileAttrKind::kCount) &&
               (tile_dim < 0 || attr->tile_dim == tile_dim);
    }
  });
  return reads;
}

bool indexes_with_block_bounds(const ir::Kernel& kernel, int tile_dim) {
  ScalarIndexBounds bounds;
  bounds.visit(kernel.body);
  return bounds.reads(tile_dim);
}

bool reads_block_size_as_number(const ir::Kernel& kernel, int tile_dim) {
  bool reads = false;
  const auto note = [&](const ir::ExprPtr& side) {
    ir::for_each_expr(side, [&](const ir::Expr& expr) {
      const auto* attr = expr.as<ir::TileAttr>();
      reads |= attr && attr->attr == ir::TileAttrKind::kBlockSize && attr->tile_dim == tile_dim;
    });
  };
  ir::for_each_expr(kernel.body, [&](const ir::Expr& expr) {
    if (const auto* binary = expr.as<ir::Binary>()) {
      if (binary->is_number_operand(binary->lhs)) note(binary->lhs);
      if (binary->is_number_operand(binary->rhs)) note(binary->rhs);
    }
  });
  return reads;
}

bool observes_block_positions(const ir::Kernel& kernel, const ir::TileDim& dim) {
  if (dim.merged) return true;  // its rows are another tile's (a reshape merges them)
  switch (dim.block.kind) {
    case ir::BlockSource::Kind::kFixed:
      // Paired tiles (ir::TileDim::paired_with) pair rows block by block: the block is meaning.
      return reads_block_numbering(kernel, dim.id) || indexes_with_block_bounds(kernel, dim.id) ||
             dim.paired_with >= 0;
    case ir::BlockSource::Kind::kTunable:
      return reads_block_value(kernel, dim);  // a registered block's value
    case ir::BlockSource::Kind::kGrid:
      return false;
  }
  return false;
}

bool reads_block_value(const ir::Kernel& kernel, const ir::TileDim& dim) {
  switch (dim.block.kind) {
    case ir::BlockSource::Kind::kFixed:
      return reads_block_size_as_number(kernel, dim.id);
    case ir::BlockSource::Kind::kTunable:
      return kernel.block_value_binding(dim.block.tunable) >= 0;
    case ir::BlockSource::Kind::kGrid:
      return false;
  }
  return false;
}

bool keeps_requested_block(const ir::Kernel& kernel, const ir::TileDim& dim) {
  return observes_block_positions(kernel, dim) || reads_block_value(kernel, dim);
}

bool keeps_block_of_one(const ir::Kernel& kernel, const ir::TileDim& dim) {
  if (!keeps_requested_block(kernel, dim)) return false;
  return dim.merged || (dim.block.kind == ir::BlockSource::Kind::kFixed && dim.block.size &&
                        ir::int_literal(*dim.block.size, 0) == 1);
}

}  // namespace helionc::passes
