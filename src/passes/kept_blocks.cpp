#include "passes/kept_blocks.h"

#include "ir/visitor.h"

namespace helionc::passes {

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

bool keeps_requested_block(const ir::Kernel& kernel, const ir::TileDim& dim) {
  switch (dim.block.kind) {
    case ir::BlockSource::Kind::kFixed:
      return reads_block_numbering(kernel, dim.id);
    case ir::BlockSource::Kind::kTunable:
      return kernel.block_value_binding(dim.block.tunable) >= 0;
    case ir::BlockSource::Kind::kGrid:
      return false;
  }
  return false;
}

}  // namespace helionc::passes
