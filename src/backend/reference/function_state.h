// What the printers of one reference function share: the kernel, the Python name of each tile
// dimension in scope, the optional imports, and the first construct that cannot be referenced.
#pragma once

#include <map>
#include <optional>
#include <string>

#include "backend/reference/function_printer.h"
#include "ir/nodes.h"

namespace helionc::backend::reference {

struct FunctionState {
  const ir::Kernel& kernel;
  std::string source_path;
  // Tile dimension id -> its local: a `_RefTile` (a tile dimension), a `_RefTiles` (a
  // rank-polymorphic one) or the int loop variable of an `hl.grid` dimension.
  std::map<int, std::string> tiles;
  bool math = false;
  bool callables = false;  // calls callable parameters (templates/reference_callables.py.tmpl)
  std::optional<Refusal> refusal;

  // Records the first construct the reference cannot express; printing goes on, and the
  // function is replaced by the refusal.
  void refuse(SourceRange range, std::string what) {
    if (!refusal) refusal = Refusal{range, std::move(what)};
  }
  // A binding's Python name: the source name, renamed when it is one the module reserves.
  std::string name(int binding) const;
  const ir::TileDim& dim(int tile_dim) const { return kernel.tile_dims.at(tile_dim); }
  // The block size a loop steps by in the reference, as a host expression: one fixed in the
  // source, or a registered block size the kernel reads as a value; null for a tile that is
  // its loop's whole range.
  ir::ExprPtr stepped_block(const ir::TileDim& dim) const {
    if (dim.block.kind == ir::BlockSource::Kind::kFixed) return dim.block.size;
    // A block a store fixes (`out[tile_m, :] = x[tile_m.begin + hl.arange(8), :]`): the only one
    // the kernel's meaning holds for.
    if (dim.stored_block > 0) return ir::IntImm::make(dim.stored_block, dim.range);
    const int value = kernel.block_value_binding(dim.block.tunable);
    if (dim.block.kind != ir::BlockSource::Kind::kTunable || value < 0) return nullptr;
    return ir::VarRef::make(value, kernel.bindings.at(static_cast<size_t>(value)).type, dim.range);
  }
  bool is_grid(int tile_dim) const {
    return dim(tile_dim).block.kind == ir::BlockSource::Kind::kGrid;
  }
  // The local of a tile dimension in scope ("" after a refusal for one out of scope).
  std::string tile(int tile_dim, SourceRange range);
  // `text  # samples/add.py:12` for a statement's range.
  std::string with_where(std::string text, const SourceRange& range) const;
  // "samples/add.py:12" ("" without a range).
  std::string where(const SourceRange& range) const;
};

}  // namespace helionc::backend::reference
