#include "passes/vmem_formula.h"

#include <fmt/format.h>
#include <algorithm>
#include <limits>

#include "ir/visitor.h"
#include "passes/held_blocks.h"
#include "support/checked_int.h"

namespace helionc::passes {

namespace {

// Thrown by the builders below for what has no static formula; caught at the API boundary.
struct NoFormula {
  std::string what;
};

size_t grid_axis(const Launch& launch, int tile_dim) {
  for (size_t g = 0; g < launch.grid.size(); ++g) {
    if (launch.grid[g].tile_dim == tile_dim) return g;
  }
  throw NoFormula{"an operand tiled by a dimension outside its launch"};
}

SizeExpr block_of(const Launch& launch, int tile_dim) {
  return SizeExpr::block(static_cast<int>(grid_axis(launch, tile_dim)));
}

std::vector<SizeExpr> extents(const Launch& launch, const Operand& operand,
                              const OperandSchedule& placed) {
  if (operand.variadic) throw NoFormula{"an operand's rank is only known at trace time"};
  std::vector<SizeExpr> block;
  for (size_t a = 0; a < operand.view.size(); ++a) {
    const ViewAxis& axis = operand.view[a];
    switch (placed.axes[a]) {
      case AxisPlacement::kBlock:
        block.push_back(block_of(launch, axis.tile_dim));
        break;
      case AxisPlacement::kResident: {
        // `unroll`: the whole axis stays in VMEM, padded to whole blocks (and by one more for
        // a paired loop, whose windows start at its begin: GridDim::from_begin).
        SizeExpr size = SizeExpr::round_up(SizeExpr::axis_size(operand.binding, axis.array_axis),
                                           block_of(launch, axis.tile_dim));
        if (launch.grid[grid_axis(launch, axis.tile_dim)].from_begin) {
          size = SizeExpr::sum({std::move(size), block_of(launch, axis.tile_dim)});
        }
        block.push_back(std::move(size));
        break;
      }
      case AxisPlacement::kWhole: {
        SizeExpr size = SizeExpr::axis_size(operand.binding, axis.array_axis);
        // A column is read through a lane-aligned window of at most 128 lanes.
        if (axis.kind == ViewAxis::Kind::kColumn) {
          size = SizeExpr::min(std::move(size), SizeExpr::constant(128));
        }
        block.push_back(std::move(size));
        break;
      }
      case AxisPlacement::kNone:
        if (axis.kind == ViewAxis::Kind::kUnit && !axis.squeezed) {
          block.push_back(SizeExpr::constant(1));
        }
        break;
    }
  }
  return block;
}

// The block as the array's layout holds it: every view axis, scalar and unit axes as 1 (the
// compiler tiles the array's last two axes, whether or not the kernel sees them).
std::vector<SizeExpr> laid_out(const Launch& launch, const Operand& operand,
                               const OperandSchedule& placed) {
  std::vector<SizeExpr> shape;
  std::vector<SizeExpr> seen = extents(launch, operand, placed);
  size_t next = 0;
  for (size_t a = 0; a < operand.view.size(); ++a) {
    const ViewAxis& axis = operand.view[a];
    const bool kept = placed.axes[a] != AxisPlacement::kNone ||
                      (axis.kind == ViewAxis::Kind::kUnit && !axis.squeezed);
    shape.push_back(kept ? std::move(seen[next++]) : SizeExpr::constant(1));
  }
  return shape;
}

SizeExpr buffers_of(const ir::Kernel& kernel, const Launch& launch, const OperandSchedule& placed) {
  // The BlockSpec leaves a streamed array in HBM; the loop streams blocks into its buffers.
  if (placed.streamed_by >= 0) return SizeExpr::buffers(placed.streamed_by);
  if (placed.vmem_buffers < 2) return SizeExpr::constant(placed.vmem_buffers);
  // Two unless the block never changes: the grid steps along the axes its index follows.
  std::vector<SizeExpr> steps;
  for (int g : placed.index_dims) {
    const ir::TileDim& dim = kernel.tile_dims[launch.grid[static_cast<size_t>(g)].tile_dim];
    // Blocks counted from a begin (`hl.tile(a, b)`): steps are not cdiv(extent, block).
    if (ir::has_begin(dim) && !ir::bounds_in_kernel(kernel, dim)) {
      return SizeExpr::constant(placed.vmem_buffers);
    }
    steps.push_back(SizeExpr::ceil_div(SizeExpr::extent(g), SizeExpr::block(g)));
  }
  if (steps.empty()) return SizeExpr::constant(1);
  return SizeExpr::min(SizeExpr::constant(placed.vmem_buffers),
                       SizeExpr::product(std::move(steps)));
}

SizeExpr operand_bytes(const ir::Kernel& kernel, const Launch& launch, const Operand& operand,
                       const OperandSchedule& placed) {
  if (placed.memory == MemorySpace::kSmem) return SizeExpr::constant(0);
  return SizeExpr::product({SizeExpr::tiled(laid_out(launch, operand, placed), operand.binding),
                            buffers_of(kernel, launch, placed)});
}

SizeExpr scratch_bytes(const ir::Kernel& kernel, const Launch& launch,
                       const ScratchBuffer& buffer) {
  if (!buffer.holds_carry()) {
    return SizeExpr::constant(0);
  }
  const ir::TileLoop::Carry& carry = launch.inner_loops[static_cast<size_t>(buffer.inner_loop)]
                                         .tile_loop()
                                         .carried[static_cast<size_t>(buffer.carry)];
  const ir::Binding& binding = kernel.bindings[carry.init];
  if (!binding.type.dtype) {
    throw NoFormula{fmt::format("the dtype of the carried value `{}` is only known at trace time",
                                binding.name)};
  }
  std::vector<SizeExpr> shape;  // as the module's `pltpu.VMEM` shape
  for (const ir::Dim& dim : binding.type.dims) {
    if (dim.kind == ir::Dim::Kind::kTile || dim.kind == ir::Dim::Kind::kTilePart) {
      // A part of a block (kTilePart): at most the block, an upper bound.
      shape.push_back(block_of(launch, dim.tile_dim));
    } else if (dim.within_axis()) {  // a slice: at most the axis (an upper bound)
      shape.push_back(SizeExpr::axis_size(dim.binding, dim.axis));
    } else if (dim.kind == ir::Dim::Kind::kLiteral) {
      shape.push_back(SizeExpr::constant(dim.extent));
    } else if (dim.kind == ir::Dim::Kind::kComputed) {
      throw NoFormula{
          fmt::format("the carried value `{}` has a size computed on the host", binding.name)};
    } else {
      shape.push_back(SizeExpr::constant(1));
    }
  }
  if (buffer.lane_rows) shape.push_back(SizeExpr::constant(kLaneRowLanes));
  return SizeExpr::tiled(std::move(shape), -1, vmem_item_bytes(*binding.type.dtype));
}

SizeExpr value_extent(const Launch& launch, const ir::Dim& dim) {
  switch (dim.kind) {
    case ir::Dim::Kind::kTile:
      return block_of(launch, dim.tile_dim);
    case ir::Dim::Kind::kTilePart:
      return SizeExpr::ceil_div(block_of(launch, dim.tile_dim), SizeExpr::constant(dim.extent));
    case ir::Dim::Kind::kFull:
    case ir::Dim::Kind::kSlice:  // at most the axis: an upper bound
      return SizeExpr::axis_size(dim.binding, dim.axis);
    case ir::Dim::Kind::kLiteral:
      return SizeExpr::constant(dim.extent);
    case ir::Dim::Kind::kComputed:
      return SizeExpr::computed(dim.size);
    case ir::Dim::Kind::kVariadic:
      throw NoFormula{"a value's rank is only known at trace time"};
    case ir::Dim::Kind::kUnit:
      break;
  }
  return SizeExpr::constant(1);
}

// The widest last axis at which a value counts as narrow (is_narrow_value).
constexpr int64_t kNarrowLanes = 16;

// The bytes of `count` values of `dims` (rank 2 or more) held at register tiles: 4 KiB per 8
// rows (16 of 16-bit, 32 of 8-bit elements) by 128 lanes of the last two axes, times the
// leading axes.
SizeExpr register_tiles_bytes(const Launch& launch, const std::vector<ir::Dim>& dims,
                              int64_t item_bytes, int64_t count) {
  std::vector<SizeExpr> extents;
  for (const ir::Dim& dim : dims) extents.push_back(value_extent(launch, dim));
  const int64_t rows_per_tile = 8 * std::max<int64_t>(1, 4 / item_bytes);
  const size_t rank = extents.size();
  std::vector<SizeExpr> factors(extents.begin(), extents.end() - 2);
  factors.push_back(SizeExpr::ceil_div(extents[rank - 2], SizeExpr::constant(rows_per_tile)));
  factors.push_back(SizeExpr::ceil_div(extents[rank - 1], SizeExpr::constant(128)));
  factors.push_back(SizeExpr::constant(4096 * count));
  return SizeExpr::product(std::move(factors));
}

// Narrow values that take the same register tiles: the same axes before the last (whose few
// elements fit one tile's lanes) and elements of the same size.
struct NarrowTiles {
  std::vector<ir::Dim> dims;  // the value's, its last axis a unit
  int64_t item_bytes;
  int64_t count;
};

void add_narrow(std::vector<NarrowTiles>& tiles, const NarrowValue& value) {
  std::vector<ir::Dim> dims = value.dims;
  dims.back() = ir::Dim::unit();
  const int64_t item = value.dtype ? vmem_item_bytes(*value.dtype) : 4;
  for (NarrowTiles& entry : tiles) {
    if (entry.dims == dims && entry.item_bytes == item) {
      entry.count += value.count;
      return;
    }
  }
  tiles.push_back({std::move(dims), item, value.count});
}

SizeExpr narrow_tiles_bytes(const Launch& launch, const std::vector<NarrowTiles>& tiles) {
  std::vector<SizeExpr> terms;
  for (const NarrowTiles& entry : tiles) {
    terms.push_back(register_tiles_bytes(launch, entry.dims, entry.item_bytes, entry.count));
  }
  return SizeExpr::sum(std::move(terms));
}

// The narrow values' bytes. Those whose last axis the call sizes count when the shortest such
// axis is at most kNarrowLanes: one condition for the launch, so that a kernel with long head
// dimensions prints one always-zero term rather than one per value (an upper bound when the
// call makes some of those axes short and others long).
SizeExpr narrow_bytes(const Launch& launch) {
  std::vector<NarrowTiles> fixed;
  std::vector<NarrowTiles> sized_by_call;
  std::vector<SizeExpr> call_sizes;  // distinct
  for (const NarrowValue& value : launch.narrow_values) {
    SizeExpr last = value_extent(launch, value.dims.back());
    if (last.kind == SizeExpr::Kind::kConst) {
      add_narrow(fixed, value);
      continue;
    }
    add_narrow(sized_by_call, value);
    if (std::find(call_sizes.begin(), call_sizes.end(), last) == call_sizes.end()) {
      call_sizes.push_back(std::move(last));
    }
  }
  std::vector<SizeExpr> terms{narrow_tiles_bytes(launch, fixed)};
  if (!call_sizes.empty()) {
    SizeExpr shortest = call_sizes.front();
    for (size_t i = 1; i < call_sizes.size(); ++i) {
      shortest = SizeExpr::min(std::move(shortest), call_sizes[i]);
    }
    terms.push_back(SizeExpr::if_at_most(narrow_tiles_bytes(launch, sized_by_call),
                                         std::move(shortest), kNarrowLanes));
  }
  return SizeExpr::sum(std::move(terms));
}

SizeExpr sort_bytes(const Launch& launch) {
  std::vector<SizeExpr> terms;
  for (const NarrowValue& rows : launch.sorted_rows) {
    terms.push_back(
        register_tiles_bytes(launch, rows.dims, vmem_item_bytes(*rows.dtype), rows.count));
  }
  return SizeExpr::sum(std::move(terms));
}

// (index count x axis length) 32-bit values at register tiles: the indices flattened into rows
// (templates/helper_gather.py.tmpl, `_one_hot`), the axis in lanes.
SizeExpr one_hot_tiles(SizeExpr rows, SizeExpr lanes) {
  return SizeExpr::product({SizeExpr::ceil_div(std::move(rows), SizeExpr::constant(8)),
                            SizeExpr::ceil_div(std::move(lanes), SizeExpr::constant(128)),
                            SizeExpr::constant(4096)});
}

SizeExpr one_hot_bytes(const Launch& launch) {
  std::vector<SizeExpr> terms;
  for (const OneHot& one_hot : launch_one_hots(launch)) {
    std::vector<SizeExpr> counts;
    for (const ir::Dim& dim : one_hot.indices) counts.push_back(value_extent(launch, dim));
    const SizeExpr rows = SizeExpr::product(std::move(counts));
    const SizeExpr axis = SizeExpr::axis_size(one_hot.binding, one_hot.array_axis);
    std::vector<SizeExpr> values{
        SizeExpr::product({SizeExpr::constant(one_hot.scatter ? kScatterCopies : kGatherCopies),
                           one_hot_tiles(rows, axis)})};
    // Which of several stores to one element counts: a compare of every pair of indices.
    if (one_hot.scatter && !one_hot.adds) values.push_back(one_hot_tiles(rows, rows));
    SizeExpr bytes = SizeExpr::sum(std::move(values));
    if (one_hot.by_dma) bytes = SizeExpr::if_at_most(std::move(bytes), axis, kGatherOneHotRows);
    terms.push_back(std::move(bytes));
  }
  return SizeExpr::sum(std::move(terms));
}

// Values held at 32 bits (held_blocks.h): 2 KiB per half-copy of each register tile of 8 rows
// by 128 lanes, times the leading axes (a contracted row axis in whole 128-row tiles); a
// product's only where its arrays' dtypes make it full-precision (HeldBlock::if_wide).
SizeExpr held_bytes(const Launch& launch, const std::vector<HeldBlock>& held) {
  // The terms of each condition (HeldBlock::if_wide), conditions in order of first use, so
  // that a product's operands and result print under one condition.
  std::vector<std::pair<std::vector<int>, std::vector<SizeExpr>>> groups;
  for (const HeldBlock& block : held) {
    std::vector<SizeExpr> factors;
    for (const ir::Dim& dim : block.dims) factors.push_back(value_extent(launch, dim));
    const size_t rank = factors.size();
    factors[rank - 2] =
        block.contracted_rows
            ? SizeExpr::product(
                  {SizeExpr::ceil_div(std::move(factors[rank - 2]), SizeExpr::constant(128)),
                   SizeExpr::constant(16)})
            : SizeExpr::ceil_div(std::move(factors[rank - 2]), SizeExpr::constant(8));
    factors[rank - 1] = SizeExpr::ceil_div(std::move(factors[rank - 1]), SizeExpr::constant(128));
    factors.push_back(SizeExpr::constant(int64_t{2048} * block.halves));
    auto group = std::find_if(groups.begin(), groups.end(),
                              [&](const auto& g) { return g.first == block.if_wide; });
    if (group == groups.end()) group = groups.insert(groups.end(), {block.if_wide, {}});
    group->second.push_back(SizeExpr::product(std::move(factors)));
  }
  std::vector<SizeExpr> terms;
  for (auto& [if_wide, group] : groups) {
    SizeExpr bytes = SizeExpr::sum(std::move(group));
    if (!if_wide.empty()) {
      // Counted when one of the arrays takes 4 bytes an element in VMEM: 8 KiB in 16 x 128
      // elements of it, 4 KiB of 16-bit and 2 KiB of 8-bit ones (tiled_vmem_bytes).
      auto words = [](int array) {
        return SizeExpr::ceil_div(
            SizeExpr::constant(8192),
            SizeExpr::tiled({SizeExpr::constant(16), SizeExpr::constant(128)}, array));
      };
      SizeExpr narrowest = words(if_wide.front());
      for (size_t i = 1; i < if_wide.size(); ++i) {
        narrowest = SizeExpr::min(std::move(narrowest), words(if_wide[i]));
      }
      bytes = SizeExpr::if_at_most(std::move(bytes), std::move(narrowest), 1);
    }
    terms.push_back(std::move(bytes));
  }
  return SizeExpr::sum(std::move(terms));
}

template <typename F>
auto formula(F&& build) -> Expected<decltype(build())> {
  try {
    return build();
  } catch (const NoFormula& none) {
    return Error{none.what};
  }
}

}  // namespace

SizeExpr SizeExpr::constant(int64_t value) {
  SizeExpr e;
  e.value = value;
  return e;
}

SizeExpr SizeExpr::if_at_most(SizeExpr then, SizeExpr size, int64_t bound) {
  if (size.kind == Kind::kConst) return size.value <= bound ? then : constant(0);
  SizeExpr e;
  e.kind = Kind::kIfAtMost;
  e.value = bound;
  e.args = {std::move(then), std::move(size)};
  return e;
}

SizeExpr SizeExpr::block(int launch_dim) {
  SizeExpr e;
  e.kind = Kind::kBlock;
  e.index = launch_dim;
  return e;
}

SizeExpr SizeExpr::axis_size(int binding, int axis) {
  SizeExpr e;
  e.kind = Kind::kAxisSize;
  e.binding = binding;
  e.axis = axis;
  return e;
}

SizeExpr SizeExpr::item_size(int binding) {
  SizeExpr e;
  e.kind = Kind::kItemSize;
  e.binding = binding;
  return e;
}

SizeExpr SizeExpr::buffers(int inner_loop) {
  SizeExpr e;
  e.kind = Kind::kBuffers;
  e.index = inner_loop;
  return e;
}

SizeExpr SizeExpr::computed(int size) {
  SizeExpr e;
  e.kind = Kind::kComputed;
  e.index = size;
  return e;
}

SizeExpr SizeExpr::extent(int launch_dim) {
  SizeExpr e;
  e.kind = Kind::kExtent;
  e.index = launch_dim;
  return e;
}

SizeExpr SizeExpr::tiled(std::vector<SizeExpr> shape, int binding, int64_t item_bytes) {
  SizeExpr e;
  e.kind = Kind::kTiled;
  e.args = std::move(shape);
  e.binding = binding;
  e.value = item_bytes;
  return e;
}

SizeExpr SizeExpr::sum(std::vector<SizeExpr> terms) {
  SizeExpr e;
  e.kind = Kind::kAdd;
  int64_t constant = 0;
  for (SizeExpr& term : terms) {
    if (term.kind == Kind::kConst) {
      constant += term.value;
    } else if (term.kind == Kind::kAdd) {
      for (SizeExpr& inner : term.args) e.args.push_back(std::move(inner));
    } else {
      e.args.push_back(std::move(term));
    }
  }
  if (constant != 0 || e.args.empty()) e.args.push_back(SizeExpr::constant(constant));
  if (e.args.size() == 1) return std::move(e.args.front());
  return e;
}

SizeExpr SizeExpr::product(std::vector<SizeExpr> factors) {
  SizeExpr e;
  e.kind = Kind::kMul;
  int64_t constant = 1;
  for (SizeExpr& factor : factors) {
    if (factor.kind == Kind::kConst) {
      constant *= factor.value;
    } else {
      e.args.push_back(std::move(factor));
    }
  }
  if (constant == 0) return SizeExpr::constant(0);
  if (constant != 1 || e.args.empty()) e.args.push_back(SizeExpr::constant(constant));
  if (e.args.size() == 1) return std::move(e.args.front());
  return e;
}

SizeExpr SizeExpr::min(SizeExpr a, SizeExpr b) {
  SizeExpr e;
  e.kind = Kind::kMin;
  e.args.push_back(std::move(a));
  e.args.push_back(std::move(b));
  return e;
}

SizeExpr SizeExpr::round_up(SizeExpr value, SizeExpr multiple) {
  SizeExpr e;
  e.kind = Kind::kRoundUp;
  e.args.push_back(std::move(value));
  e.args.push_back(std::move(multiple));
  return e;
}

SizeExpr SizeExpr::ceil_div(SizeExpr value, SizeExpr divisor) {
  if (value.kind == Kind::kConst && divisor.kind == Kind::kConst && divisor.value > 0) {
    return SizeExpr::constant((value.value + divisor.value - 1) / divisor.value);
  }
  SizeExpr e;
  e.kind = Kind::kCeilDiv;
  e.args.push_back(std::move(value));
  e.args.push_back(std::move(divisor));
  return e;
}

int64_t tiled_vmem_bytes(const std::vector<int64_t>& shape, int64_t item_bytes) {
  constexpr int64_t kLanes = 128;
  constexpr int64_t kRows = 8;
  constexpr int64_t kUnit = 1024;
  const int64_t lanes = shape.empty() ? 1 : shape.back();
  int64_t rows = shape.size() < 2 ? 1 : shape[shape.size() - 2];
  int64_t leading = 1;
  for (size_t a = 0; a + 2 < shape.size(); ++a) leading *= shape[a];
  if (lanes <= 0 || rows <= 0 || leading <= 0) return 0;
  if (rows > kRows) {
    rows = ceil_div(rows, kRows) * kRows;
  } else {
    int64_t tile = std::max<int64_t>(1, 4 / std::max<int64_t>(item_bytes, 1));
    while (tile < rows) tile *= 2;
    rows = tile;
  }
  std::optional<int64_t> bytes = checked_mul(leading, rows);
  if (bytes) bytes = checked_mul(*bytes, ceil_div(lanes, kLanes) * kLanes);
  if (bytes) bytes = checked_mul(*bytes, item_bytes);
  if (!bytes) return std::numeric_limits<int64_t>::max();
  return ceil_div(*bytes, kUnit) * kUnit;
}

int64_t vmem_item_bytes(ir::ScalarType dtype) {
  dtype = ir::device_dtype(dtype);  // VMEM holds float16 as float32
  return dtype == ir::ScalarType::kBool ? 4 : ir::dtype_bits(dtype) / 8;
}

std::optional<int64_t> evaluate_size(const SizeExpr& expr, const SizeLeaves& leaves) {
  switch (expr.kind) {
    case SizeExpr::Kind::kConst:
      return expr.value;
    case SizeExpr::Kind::kBlock:
      return leaves.block(expr.index);
    case SizeExpr::Kind::kAxisSize:
      return leaves.axis_size(expr.binding, expr.axis);
    case SizeExpr::Kind::kItemSize:
      return leaves.item_size(expr.binding);
    case SizeExpr::Kind::kBuffers:
      return leaves.buffers(expr.index);
    case SizeExpr::Kind::kComputed:
      return leaves.computed(expr.index);
    case SizeExpr::Kind::kAdd:
    case SizeExpr::Kind::kMul: {
      const bool add = expr.kind == SizeExpr::Kind::kAdd;
      std::optional<int64_t> total = add ? 0 : 1;
      for (const SizeExpr& arg : expr.args) {
        std::optional<int64_t> value = evaluate_size(arg, leaves);
        if (!value) return std::nullopt;
        total = add ? checked_add(*total, *value) : checked_mul(*total, *value);
        if (!total) return std::nullopt;
      }
      return total;
    }
    case SizeExpr::Kind::kMin: {
      std::optional<int64_t> a = evaluate_size(expr.args[0], leaves);
      std::optional<int64_t> b = evaluate_size(expr.args[1], leaves);
      if (!a || !b) return std::nullopt;
      return std::min(*a, *b);
    }
    case SizeExpr::Kind::kRoundUp:
    case SizeExpr::Kind::kCeilDiv: {
      std::optional<int64_t> a = evaluate_size(expr.args[0], leaves);
      std::optional<int64_t> b = evaluate_size(expr.args[1], leaves);
      if (!a || !b) return std::nullopt;
      if (*b <= 0) return 0;  // no blocks (an empty dimension)
      if (expr.kind == SizeExpr::Kind::kCeilDiv) return ceil_div(*a, *b);
      return checked_mul(ceil_div(*a, *b), *b);
    }
    case SizeExpr::Kind::kExtent:
      return leaves.extent(expr.index);
    case SizeExpr::Kind::kIfAtMost: {
      std::optional<int64_t> size = evaluate_size(expr.args[1], leaves);
      if (!size) return std::nullopt;
      return *size <= expr.value ? evaluate_size(expr.args[0], leaves) : 0;
    }
    case SizeExpr::Kind::kTiled: {
      std::vector<int64_t> shape;
      for (const SizeExpr& arg : expr.args) {
        std::optional<int64_t> extent = evaluate_size(arg, leaves);
        if (!extent) return std::nullopt;
        shape.push_back(*extent);
      }
      const int64_t bytes =
          tiled_vmem_bytes(shape, expr.binding >= 0 ? leaves.item_size(expr.binding) : expr.value);
      if (bytes == std::numeric_limits<int64_t>::max()) return std::nullopt;
      return bytes;
    }
  }
  return std::nullopt;
}

Expected<std::vector<SizeExpr>> block_extents(const Launch& launch, const Operand& operand,
                                              const OperandSchedule& placed) {
  return formula([&] { return extents(launch, operand, placed); });
}

Expected<SizeExpr> operand_buffers(const ir::Kernel& kernel, const Launch& launch,
                                   const OperandSchedule& placed) {
  return formula([&] { return buffers_of(kernel, launch, placed); });
}

Expected<SizeExpr> operand_vmem(const ir::Kernel& kernel, const Launch& launch,
                                const Operand& operand, const OperandSchedule& placed) {
  return formula([&] { return operand_bytes(kernel, launch, operand, placed); });
}

Expected<SizeExpr> scratch_vmem(const ir::Kernel& kernel, const Launch& launch,
                                const ScratchBuffer& buffer) {
  return formula([&] { return scratch_bytes(kernel, launch, buffer); });
}

bool is_narrow_value(const ir::Type& type) {
  if (type.kind != ir::TypeKind::kTileTensor || type.dims.size() < 3) return false;
  const ir::Dim& last = type.dims.back();
  switch (last.kind) {
    case ir::Dim::Kind::kUnit:
      return true;
    case ir::Dim::Kind::kLiteral:
      return last.extent <= kNarrowLanes;
    case ir::Dim::Kind::kFull:
    case ir::Dim::Kind::kSlice:
    case ir::Dim::Kind::kComputed:
      return true;  // narrow_bytes counts it when the call's size is at most kNarrowLanes
    case ir::Dim::Kind::kTile:  // lane blocks of 128 or the whole axis (legal_block)
    case ir::Dim::Kind::kTilePart:
    case ir::Dim::Kind::kVariadic:
      return false;
  }
  return false;
}

Expected<SizeExpr> narrow_values_vmem(const Launch& launch) {
  return formula([&] { return narrow_bytes(launch); });
}

Expected<SizeExpr> sorts_vmem(const Launch& launch) {
  return formula([&] { return sort_bytes(launch); });
}

std::vector<OneHot> launch_one_hots(const Launch& launch) {
  std::vector<OneHot> found;
  auto add = [&found](const OneHot& one_hot) {
    if (std::find(found.begin(), found.end(), one_hot) == found.end()) found.push_back(one_hot);
  };
  for (const Input& input : launch.inputs) {
    if (input.output >= 0) continue;  // an output's old contents: its stores count
    for (const ViewAxis& axis : input.operand.view) {
      if (axis.gather) {
        add({axis.gather->type.dims, input.operand.binding, axis.array_axis, false, false,
             axis.dma_ids >= 0});
      }
    }
  }
  // In source order (Launch::stores is keyed by address), so that the formula prints the same
  // on every run.
  std::vector<std::pair<const ir::Store*, int>> stores(launch.stores.begin(), launch.stores.end());
  std::sort(stores.begin(), stores.end(), [](const auto& a, const auto& b) {
    return a.first->range.begin < b.first->range.begin;
  });
  for (const auto& [store, output] : stores) {
    const Operand& operand = launch.outputs[static_cast<size_t>(output)].operand;
    const int binding = operand.binding;
    auto picked = [&operand](int array_axis) {
      return std::any_of(operand.view.begin(), operand.view.end(), [&](const ViewAxis& axis) {
        return axis.picked && axis.array_axis == array_axis;
      });
    };
    int array_axis = 0;
    for (const ir::IndexItem& item : store->index) {
      if (item.kind == ir::IndexItem::Kind::kGather && item.scalar) {
        add({item.scalar->type.dims, binding, array_axis, true, store->accumulate, false});
      } else if (item.kind == ir::IndexItem::Kind::kTile && picked(array_axis)) {
        // `out[b, tile_n]` beside `out[b, n - 1]`: `_scatter` at the tile's indices.
        add({{ir::Dim::tile(item.tile_dim)}, binding, array_axis, true, store->accumulate, false});
      }
      if (item.kind != ir::IndexItem::Kind::kNewAxis) ++array_axis;
    }
  }
  return found;
}

Expected<SizeExpr> one_hots_vmem(const Launch& launch) {
  return formula([&] { return one_hot_bytes(launch); });
}

Expected<SizeExpr> reductions_vmem(const Launch& launch) {
  return formula([&] { return held_bytes(launch, launch_reduced_blocks(launch)); });
}

Expected<SizeExpr> products_vmem(const Launch& launch) {
  return formula([&] { return held_bytes(launch, launch_precise_products(launch)); });
}

Expected<SizeExpr> random_draws_vmem(const Launch& launch) {
  return formula([&] { return held_bytes(launch, launch_random_draws(launch).held); });
}

namespace {

// Whether the body reads a row of values from VMEM: an input whose block, as the kernel sees
// it, has one axis, or a value of one axis that a scratch buffer carries across steps. Such a
// value is laid out in lanes, and a reduction's result meets it there (`acc + x.sum(-1)` with
// `acc` in a `grid` loop's scratch, `running + x.sum(-1)`): the v5 compilers take their
// scratch for the move at any length then (long_sum's 4 to 16 rows, update_and_return's 9 and
// 32, jagged_row_max's 13 to 24: 35.5 to 36 KiB on v5e), where a result only stored, or
// carried in registers by a `fori_loop`, takes none at up to 128 float32 values.
bool reads_row_in_lanes(const ir::Kernel& kernel, const Launch& launch,
                        const LaunchSchedule& schedule) {
  for (size_t i = 0; i < launch.inputs.size(); ++i) {
    const Input& input = launch.inputs[i];
    if (input.kind == Input::Kind::kAliasedUnread || input.operand.variadic) continue;
    if (schedule.inputs[i].memory != MemorySpace::kVmem) continue;
    try {
      if (extents(launch, input.operand, schedule.inputs[i]).size() == 1) return true;
    } catch (const NoFormula&) {
      continue;  // an operand tiled outside the launch: not a row
    }
  }
  for (const ScratchBuffer& buffer : schedule.scratch) {
    if (!buffer.holds_carry()) {
      continue;
    }
    const ir::TileLoop::Carry& carry = launch.inner_loops[static_cast<size_t>(buffer.inner_loop)]
                                           .tile_loop()
                                           .carried[static_cast<size_t>(buffer.carry)];
    if (kernel.bindings[carry.init].type.dims.size() == 1) return true;
  }
  return false;
}

}  // namespace

SizeExpr lane_moves_vmem(const ir::Kernel& kernel, const Launch& launch,
                         const LaunchSchedule& schedule, int64_t scratch_bytes) {
  if (scratch_bytes <= 0) return SizeExpr::constant(0);
  const std::vector<LaneMove> moves = launch_lane_moves(launch);
  if (moves.empty()) return SizeExpr::constant(0);
  // A lane reduction's result that meets a row read from VMEM (rows meeting blocks count alone).
  const bool reduction_moves =
      std::any_of(moves.begin(), moves.end(), [](const LaneMove& move) { return move.by_rows; });
  if (reduction_moves && reads_row_in_lanes(kernel, launch, schedule)) {
    return SizeExpr::constant(scratch_bytes);
  }
  // Per move, `scratch_bytes` when it counts and 0 when not; the launch takes the scratch once.
  std::vector<SizeExpr> terms;
  bool may_exceed = false;  // a sum that may pass `scratch_bytes`, which the minimum bounds
  for (const LaneMove& move : moves) {
    if (move.narrow) return SizeExpr::constant(scratch_bytes);
    std::vector<SizeExpr> counts;
    if (move.by_rows) {
      SizeExpr rows;
      try {
        rows = value_extent(launch, move.rows);
      } catch (const NoFormula&) {
        return SizeExpr::constant(scratch_bytes);  // an upper bound
      }
      counts.push_back(SizeExpr::constant(scratch_bytes));
      counts.push_back(
          SizeExpr::if_at_most(SizeExpr::constant(-scratch_bytes), std::move(rows), kLaneMoveRows));
    }
    for (int array : move.if_narrow) {
      // An array of 16-bit or 8-bit elements: 2 or 4 of them in a 32-bit word, as 16 x 128 of
      // them take 4 or 2 KiB of 8 (tiled_vmem_bytes).
      SizeExpr per_word = SizeExpr::ceil_div(
          SizeExpr::constant(8192),
          SizeExpr::tiled({SizeExpr::constant(16), SizeExpr::constant(128)}, array));
      counts.push_back(SizeExpr::constant(scratch_bytes));
      counts.push_back(
          SizeExpr::if_at_most(SizeExpr::constant(-scratch_bytes), std::move(per_word), 1));
    }
    SizeExpr count = SizeExpr::sum(std::move(counts));
    if (count.kind == SizeExpr::Kind::kConst && count.value >= scratch_bytes) {
      return SizeExpr::constant(scratch_bytes);
    }
    if (count.is_constant(0)) continue;
    may_exceed = may_exceed || !terms.empty() || !move.if_narrow.empty();
    terms.push_back(std::move(count));
  }
  if (terms.empty()) return SizeExpr::constant(0);
  if (!may_exceed) return std::move(terms.front());
  return SizeExpr::min(SizeExpr::constant(scratch_bytes), SizeExpr::sum(std::move(terms)));
}

Expected<SizeExpr> hoisted_values_vmem(const ir::Kernel& kernel, const Launch& launch,
                                       const LaunchSchedule& schedule) {
  return formula([&] {
    std::vector<SizeExpr> terms;
    const auto add = [&](const ir::Type& type) {
      if (type.kind != ir::TypeKind::kTileTensor || type.dims.empty()) return;
      std::vector<SizeExpr> shape;
      for (const ir::Dim& dim : type.dims) shape.push_back(value_extent(launch, dim));
      terms.push_back(
          SizeExpr::tiled(std::move(shape), -1, type.dtype ? vmem_item_bytes(*type.dtype) : 4));
    };
    for (const std::vector<HoistedValue>& values : schedule.hoisted) {
      for (const HoistedValue& value : values) {
        if (value.let == nullptr) {
          add(value.expr->type);
          continue;
        }
        for (int target : value.let->targets) {
          add(kernel.bindings[static_cast<size_t>(target)].type);
        }
      }
    }
    return SizeExpr::sum(std::move(terms));
  });
}

Expected<SizeExpr> launch_vmem(const ir::Kernel& kernel, const Launch& launch,
                               const LaunchSchedule& schedule, int64_t lane_move_scratch_bytes) {
  return formula([&] {
    if (launch.variadic) {
      throw NoFormula{
          "the launch tiles `hl.tile(x.size())`, whose rank is only known at trace time"};
    }
    std::vector<SizeExpr> terms;
    for (size_t i = 0; i < launch.inputs.size(); ++i) {
      // An aliased input the kernel never reads is not copied.
      if (launch.inputs[i].kind == Input::Kind::kAliasedUnread) continue;
      terms.push_back(operand_bytes(kernel, launch, launch.inputs[i].operand, schedule.inputs[i]));
    }
    for (size_t o = 0; o < launch.outputs.size(); ++o) {
      terms.push_back(
          operand_bytes(kernel, launch, launch.outputs[o].operand, schedule.outputs[o]));
    }
    for (const ScratchBuffer& buffer : schedule.scratch) {
      terms.push_back(scratch_bytes(kernel, launch, buffer));
    }
    for (auto* held : {&narrow_values_vmem, &sorts_vmem, &one_hots_vmem, &reductions_vmem,
                       &products_vmem, &random_draws_vmem}) {
      if (Expected<SizeExpr> bytes = held(launch)) terms.push_back(std::move(*bytes));
    }
    if (Expected<SizeExpr> bytes = hoisted_values_vmem(kernel, launch, schedule)) {
      terms.push_back(std::move(*bytes));
    }
    terms.push_back(lane_moves_vmem(kernel, launch, schedule, lane_move_scratch_bytes));
    return SizeExpr::sum(std::move(terms));
  });
}

}  // namespace helionc::passes
