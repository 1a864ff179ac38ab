#include "passes/refuse_block_positions.h"

#include <fmt/format.h>

#include <optional>

#include "ir/visitor.h"
#include "passes/kept_blocks.h"

namespace helionc::passes {

namespace {

// Whether the module uses exactly the block the kernel asks for along `tile_dim` (hl.grid's
// blocks of one element are never widened).
bool exact_block(const ir::Kernel& kernel, int tile_dim) {
  const ir::TileDim& dim = kernel.tile_dims[static_cast<size_t>(tile_dim)];
  return dim.block.kind == ir::BlockSource::Kind::kGrid || keeps_requested_block(kernel, dim);
}

bool refuse_in(const ir::Kernel& kernel, DiagnosticEngine& diags) {
  std::optional<SourceRange> where;
  std::string name;
  ir::for_each_expr(kernel.body, [&](const ir::Expr& expr) {
    const auto* binary = expr.as<ir::Binary>();
    if (where || !binary ||
        (binary->op != ir::BinaryOp::kFloorDiv && binary->op != ir::BinaryOp::kMod)) {
      return;
    }
    const auto* attr = binary->lhs->as<ir::TileAttr>();
    if (!attr || (attr->attr != ir::TileAttrKind::kBegin && attr->attr != ir::TileAttrKind::kEnd) ||
        exact_block(kernel, attr->tile_dim)) {
      return;
    }
    where = expr.range;
    name = kernel.tile_dims[static_cast<size_t>(attr->tile_dim)].name;
  });
  if (!where) return true;
  diags.error(DiagnosticKind::kUnsupported, *where,
              fmt::format("dividing the position of a block of `{}` (its value depends on the "
                          "block size, which the module may widen to one legal on a TPU) is "
                          "not supported yet; register the block size and read its value "
                          "(`block = hl.register_block_size(n)`, `hl.tile(n, block_size=block)`, "
                          "then `block` in device code) to keep exactly the configured block",
                          name));
  return false;
}

}  // namespace

bool refuse_block_positions(const ir::Module& module, DiagnosticEngine& diags) {
  bool ok = true;
  for (const ir::Kernel& kernel : module.kernels) ok &= refuse_in(kernel, diags);
  return ok;
}

}  // namespace helionc::passes
