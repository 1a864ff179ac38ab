#include "passes/plan_launches.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ir/printer.h"
#include "ir/visitor.h"
#include "passes/kept_blocks.h"
#include "passes/plan_costs.h"
#include "passes/plan_gathers.h"
#include "passes/plan_legality.h"
#include "passes/plan_picks.h"
#include "passes/plan_skips.h"
#include "passes/plan_slices.h"
#include "passes/plan_strategies.h"
#include "passes/plan_views.h"
#include "passes/shape_facts.h"
#include "passes/vmem_formula.h"

namespace helionc::passes {

namespace {

using ir::Binding;
using ir::ExprPtr;
using ir::IndexItem;
using ir::Intrinsic;
using ir::TypeKind;

// One load or store of the body, in evaluation order.
struct Access {
  bool store = false;
  int binding = -1;
  const ir::Index* index = nullptr;
  std::string pattern;  // a key for the index pattern
  SourceRange range;
  const ir::Load* load = nullptr;
  const ir::Store* store_node = nullptr;
  bool conditional = false;       // under an `if` or a static loop of the body: may not run
  std::vector<int> static_loops;  // the static loops around it, outermost first (walk order ids)
  int inner_loop = -1;            // the innermost inner tile loop around it (Launch::inner_loops)
  bool under_device_if = false;   // in a branch of an `if` on a device value (ir::If::on_device)
};

class LaunchPlanner {
 public:
  LaunchPlanner(const ir::Kernel& kernel, const ShapeFacts& facts, DiagnosticEngine& diags,
                const std::set<int>& written_before)
      : kernel_(kernel), facts_(facts), diags_(diags), written_before_(written_before) {}

  std::optional<Launch> plan(const ir::StmtPtr& stmt, int index) {
    const auto& loop = *stmt->as<ir::TileLoop>();
    launch_.index = index;
    launch_.loop = stmt;
    for (int dim : loop.tile_dims) {
      GridDim grid;
      grid.tile_dim = dim;
      launch_.grid.push_back(grid);
      grid_axis_[dim] = static_cast<int>(launch_.grid.size()) - 1;
      const ir::TileDim& tile = kernel_.tile_dims[dim];
      if (tile.variadic) launch_.variadic = true;
    }
    if (launch_.variadic && loop.tile_dims.size() != 1) {
      unsupported(loop.range,
                  "a rank-polymorphic `hl.tile(x.size())` together with other tile "
                  "dimensions is not supported yet");
    }
    for (size_t i = 0; i < loop.loop_vars.size(); ++i) {
      const int var = loop.loop_vars[i];
      if (kernel_.bindings[var].type.kind == TypeKind::kInt && i < loop.tile_dims.size()) {
        grid_var_dim_[var] = loop.tile_dims[i];
      }
    }
    for (const ir::StmtPtr& s : loop.body) walk_stmt(*s);
    if (failed_) return std::nullopt;
    build_operands();
    if (launch_.outputs.empty() && !failed_) {
      unsupported(loop.range, "a tile loop that stores into no tensor is not supported yet");
    }
    if (failed_) return std::nullopt;
    for (const DmaGather& gather : dma_gathers(kernel_, launch_)) add_dma_gather(gather);
    find_step_skips(kernel_, launch_);
    for (const InnerLoop& inner : launch_.inner_loops) {
      // The kernel computes the skipped range from both tiles' blocks and bounds.
      if (!inner.skip) continue;
      capture_mask_values(inner.skip->outer_dim);
      capture_mask_values(inner.skip->inner_dim);
    }
    resolve_captures();
    record_tile_uses(kernel_, facts_, launch_);
    refuse_unbounded_loops();
    refuse_unaligned_windows();
    judge_loop_strategies(kernel_, launch_);
    if (failed_) return std::nullopt;
    return std::move(launch_);
  }

 private:
  void unsupported(SourceRange range, std::string message) {
    diags_.error(DiagnosticKind::kUnsupported, range, std::move(message));
    failed_ = true;
  }

  const std::string& name(int binding) const { return kernel_.bindings[binding].name; }

  // A paired loop's windows start at its begin (GridDim::from_begin), a row the block need not
  // divide. On a leading axis that is an address like any other; on the last two axes of a
  // block (tiled in VMEM by 8 sublanes x 128 lanes) Mosaic loads and copies windows only at
  // offsets it can prove aligned ("dynamic load with unaligned indices" is not implemented),
  // so such a use is refused rather than left to fail when the TPU compiles the kernel.
  void refuse_unaligned_windows() {
    for (const GridDim& grid : launch_.grid) {
      if (!grid.from_begin) continue;
      for (const TileUse& use : grid.uses) {
        if (use.role == AxisRole::kLeading) continue;
        const Operand& operand = use.output
                                     ? launch_.outputs[static_cast<size_t>(use.operand)].operand
                                     : launch_.inputs[static_cast<size_t>(use.operand)].operand;
        const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
        unsupported(
            operand.range,
            fmt::format("the tile `{}`, whose rows the kernel combines with those of `{}` (so its "
                        "blocks start at the loop's begin, which the block need not divide), "
                        "indexes the {} axis of `{}`'s block; windows at such offsets are "
                        "supported on leading axes only (a TPU loads the last two axes in "
                        "tiles of 8 x 128), not yet here: put the looped axis first in an array "
                        "of rank 3 or more",
                        dim.name, kernel_.tile_dims[dim.paired_with].name,
                        use.role == AxisRole::kLane ? "lane (last)" : "sublane (second-to-last)",
                        name(operand.binding)));
        return;
      }
    }
  }

  // A loop bounded by values computed in the kernel needs an upper bound on the host (its
  // blocks and, under `grid`, its steps): the axis of a tensor it tiles, or the enclosing
  // loop's (record_tile_uses). A loop that only offsets indices (`x[start + tile.index]`) or
  // sits under an `hl.grid` has neither.
  void refuse_unbounded_loops() {
    if (launch_.variadic) return;
    for (const GridDim& grid : launch_.grid) {
      const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
      if (grid.size_binding >= 0 || !ir::bounds_in_kernel(kernel_, dim)) continue;
      unsupported(dim.range,
                  fmt::format("a loop bounded by values computed in the kernel whose tile `{}` "
                              "indexes no tensor axis directly is not supported yet: helionc "
                              "bounds such a loop by the axis it tiles (index a tensor with "
                              "`{}` itself)",
                              dim.name, dim.name));
    }
  }

  bool is_host(int binding) const {
    const auto origin = kernel_.bindings[binding].origin;
    return origin == Binding::Origin::kParam || origin == Binding::Origin::kHost;
  }

  // ---- the walk over the body ----------------------------------------------------------

  void walk_stmt(const ir::Stmt& stmt) {
    switch (stmt.kind) {
      case ir::StmtKind::kLet: {
        const auto& let = *stmt.as<ir::Let>();
        walk_expr(let.value);
        if (!let.unpack) device_values_[let.targets[0]] = let.value;
        return;
      }
      case ir::StmtKind::kStore: {
        const auto& store = *stmt.as<ir::Store>();
        walk_index(store.index, store.tensor, /*read=*/false);
        walk_expr(store.value);
        const auto* tensor = store.tensor->as<ir::VarRef>();
        if (tensor == nullptr || !is_host(tensor->binding)) {
          unsupported(store.tensor->range, "storing into this value is not supported yet");
          return;
        }
        Access access;
        access.store = true;
        access.binding = tensor->binding;
        access.index = &store.index;
        access.pattern = pattern_key(store.index);
        access.range = stmt.range;
        access.store_node = &store;
        access.conditional = if_depth_ > 0;
        access.static_loops = static_loops_;
        access.inner_loop = current_inner_;
        access.under_device_if = device_if_depth_ > 0;
        accesses_.push_back(std::move(access));
        return;
      }
      case ir::StmtKind::kIf: {
        // A branch on static values (captured host values), taken while the kernel is traced.
        const auto& branch = *stmt.as<ir::If>();
        if (const auto* fixed = branch.condition->as<ir::BoolImm>()) {
          // Decided by unswitching: only the branch taken is part of this launch.
          for (const ir::StmtPtr& s : fixed->value ? branch.then_body : branch.else_body) {
            walk_stmt(*s);
          }
          return;
        }
        walk_expr(branch.condition);
        ++if_depth_;
        if (branch.on_device) ++device_if_depth_;
        for (const ir::StmtPtr& s : branch.then_body) walk_stmt(*s);
        for (const ir::StmtPtr& s : branch.else_body) walk_stmt(*s);
        if (branch.on_device) --device_if_depth_;
        --if_depth_;
        return;
      }
      case ir::StmtKind::kTileLoop:
        walk_inner_loop(stmt);
        return;
      case ir::StmtKind::kStaticLoop: {
        // A Python `for` in the kernel over host ints (unrolled while JAX traces).
        const auto& loop = *stmt.as<ir::StaticLoop>();
        walk_expr(loop.begin);
        walk_expr(loop.end);
        walk_expr(loop.step);
        ++if_depth_;  // an inner loop in it is not directly in the launch's body
        static_loops_.push_back(next_static_loop_++);
        for (const ir::StmtPtr& s : loop.body) walk_stmt(*s);
        static_loops_.pop_back();
        --if_depth_;
        return;
      }
      default:
        unsupported(stmt.range, "this statement is not supported in device code yet");
        return;
    }
  }

  // A tile loop inside the body: its dimensions join the launch's (after the grid's), its
  // bounds are kernel values, and its body is part of the launch's body.
  void walk_inner_loop(const ir::Stmt& stmt) {
    const auto& loop = *stmt.as<ir::TileLoop>();
    const int index = static_cast<int>(launch_.inner_loops.size());
    InnerLoop inner;
    inner.loop = &loop;
    inner.parent = current_inner_;
    inner.top_level = current_inner_ < 0 && if_depth_ == 0;
    launch_.inner_loops.push_back(std::move(inner));
    for (int dim : loop.tile_dims) {
      const ir::TileDim& tile = kernel_.tile_dims[dim];
      // (An inner `hl.grid` reaches here as tiles of one element: frontend/lower_tiles.cpp.)
      if (tile.variadic) {
        unsupported(tile.range, "an inner loop of trace-time rank is not supported yet");
        return;
      }
      GridDim grid;
      grid.tile_dim = dim;
      grid.inner_loop = index;
      grid.from_begin = tile.paired_with >= 0;
      grid_axis_[dim] = static_cast<int>(launch_.grid.size());
      launch_.grid.push_back(grid);
      // The loop's range is computed in the kernel (it may come from the outer tile).
      capture_mask_values(dim);
    }
    const int outer = current_inner_;
    current_inner_ = index;
    for (const ir::StmtPtr& s : loop.body) walk_stmt(*s);
    current_inner_ = outer;
  }

  void note_narrow_value(const ir::Type& type) {
    for (NarrowValue& value : launch_.narrow_values) {
      if (value.dims == type.dims && value.dtype == type.dtype) {
        ++value.count;
        return;
      }
    }
    launch_.narrow_values.push_back({type.dims, type.dtype});
  }

  void note_sorted_rows(const ir::Type& rows) {
    std::vector<ir::Dim> dims = rows.dims;
    if (dims.size() < 2) dims.insert(dims.begin(), 2 - dims.size(), ir::Dim::unit());
    for (const NarrowValue& sorted : launch_.sorted_rows) {
      if (sorted.dims == dims) return;
    }
    launch_.sorted_rows.push_back({std::move(dims), ir::ScalarType::kInt32, kSortCopies});
  }

  void walk_expr(const ExprPtr& expr) {
    if (!expr) return;
    // A value sized by a host int computed from others (Dim::Kind::kComputed): the kernel
    // prints that int wherever it spells the value's shape, so it needs what the int reads.
    for (const ir::Dim& dim : expr->type.dims) {
      if (dim.kind == ir::Dim::Kind::kComputed) {
        walk_expr(kernel_.computed_sizes[static_cast<size_t>(dim.size)].value);
      }
    }
    // A name or a tuple's element is a value computed elsewhere, counted there.
    if (expr->kind != ir::ExprKind::kVarRef && expr->kind != ir::ExprKind::kTupleGet &&
        is_narrow_value(expr->type)) {
      note_narrow_value(expr->type);
    }
    switch (expr->kind) {
      case ir::ExprKind::kLoad: {
        const auto& load = *expr->as<ir::Load>();
        walk_index(load.index, load.tensor, /*read=*/true);
        const auto* tensor = load.tensor->as<ir::VarRef>();
        if (tensor == nullptr || !is_host(tensor->binding)) {
          unsupported(load.tensor->range, "indexing this value is not supported yet");
          return;
        }
        Access access;
        access.binding = tensor->binding;
        access.index = &load.index;
        access.pattern = pattern_key(load.index);
        access.range = expr->range;
        access.load = &load;
        access.static_loops = static_loops_;
        access.inner_loop = current_inner_;
        accesses_.push_back(std::move(access));
        count_cost(*expr, launch_.cost, current_inner_);
        return;
      }
      case ir::ExprKind::kVarRef:
        use_value(*expr->as<ir::VarRef>());
        return;
      case ir::ExprKind::kCall: {
        const auto& call = *expr->as<ir::Call>();
        if (host_query(call)) return;
        if (call.op == ir::Intrinsic::kSortLast) note_sorted_rows(call.args[0]->type);
        for (const ExprPtr& arg : call.args) walk_expr(arg);
        capture_geometry(call);
        count_cost(*expr, launch_.cost, current_inner_);
        return;
      }
      case ir::ExprKind::kTileAttr: {
        const auto& attr = *expr->as<ir::TileAttr>();
        if (!grid_axis_.count(attr.tile_dim) ||
            kernel_.tile_dims[attr.tile_dim].block.kind == ir::BlockSource::Kind::kGrid) {
          unsupported(expr->range, "this tile attribute here is not supported yet");
          return;
        }
        // The block's position needs the block size (and the loop's start); its end the extent.
        const ir::TileDim& dim = kernel_.tile_dims[attr.tile_dim];
        if (attr.attr == ir::TileAttrKind::kEnd) {
          capture_mask_values(attr.tile_dim);
        } else if (attr.attr != ir::TileAttrKind::kId && attr.attr != ir::TileAttrKind::kCount) {
          capture(Capture::Kind::kBlock, -1, attr.tile_dim);
          if (ir::has_begin(dim)) walk_expr(dim.begin);
        }
        return;
      }
      case ir::ExprKind::kUnary:
        walk_expr(expr->as<ir::Unary>()->operand);
        count_cost(*expr, launch_.cost, current_inner_);
        return;
      case ir::ExprKind::kBinary:
        walk_expr(expr->as<ir::Binary>()->lhs);
        walk_expr(expr->as<ir::Binary>()->rhs);
        count_cost(*expr, launch_.cost, current_inner_);
        return;
      case ir::ExprKind::kCompare:
        walk_expr(expr->as<ir::Compare>()->lhs);
        walk_expr(expr->as<ir::Compare>()->rhs);
        count_cost(*expr, launch_.cost, current_inner_);
        return;
      case ir::ExprKind::kTupleExpr:
        for (const ExprPtr& e : expr->as<ir::TupleExpr>()->elements) walk_expr(e);
        return;
      case ir::ExprKind::kTupleGet:
        walk_expr(expr->as<ir::TupleGet>()->tuple);
        return;
      default:
        return;  // literals
    }
  }

  // What the kernel needs to know about its blocks for an operation: block shapes for
  // creation, masks for reductions along a tiled axis (blocks may run past the loop's range).
  void capture_geometry(const ir::Call& call) {
    if (call.op == Intrinsic::kFull || call.op == Intrinsic::kBroadcastTo) {
      for (const ir::Dim& dim : call.type.dims) {
        if (dim.kind == ir::Dim::Kind::kTile) capture(Capture::Kind::kBlock, -1, dim.tile_dim);
        if (dim.within_axis()) capture(Capture::Kind::kShape, dim.binding);
        if (dim.kind == ir::Dim::Kind::kVariadic) {
          unsupported(call.range, "creating a tile of trace-time rank is not supported yet");
        }
      }
      return;
    }
    if (call.op == Intrinsic::kWindow && ir::int_literal(*call.args[4], 0) > 0) {
      // The trace-time check of a window's rows needs the block size and the loop's range.
      const ir::Dim& dim = call.args[0]->type.dims[ir::int_literal(*call.args[1], 0)];
      if (dim.kind == ir::Dim::Kind::kTile) capture_mask_values(dim.tile_dim);
      return;
    }
    if (call.op == Intrinsic::kFitBlock) {
      // The trace-time check of the stored value's size needs the block size and the range.
      const ir::Dim& dim = call.type.dims[ir::int_literal(*call.args[1], 0)];
      if (dim.kind == ir::Dim::Kind::kTile) capture_mask_values(dim.tile_dim);
      return;
    }
    if (call.op == Intrinsic::kCallParam) {
      // A callable parameter sees its tile values with zeros past the loops' ranges (what
      // Helion's masked loads give it): the masks of every partial axis.
      for (const ir::ExprPtr& arg : call.args[1]->as<ir::TupleExpr>()->elements) {
        if (arg->type.kind != TypeKind::kTileTensor) continue;
        for (const ir::Dim& d : arg->type.dims) {
          if (d.kind == ir::Dim::Kind::kTile &&
              kernel_.tile_dims[d.tile_dim].block.kind != ir::BlockSource::Kind::kGrid) {
            capture_mask_values(d.tile_dim);
          }
          if (d.within_axis()) capture(Capture::Kind::kShape, d.binding);
        }
      }
      return;
    }
    if (!ir::reduces_along_axis(call.op)) return;
    const ir::Type& operand = call.args[0]->type;
    const auto* axis = call.args[1]->as<ir::IntImm>();
    if (operand.kind != TypeKind::kTileTensor || axis == nullptr) return;
    if (axis->value < 0 || axis->value >= static_cast<int64_t>(operand.dims.size())) return;
    const ir::Dim& dim = operand.dims[axis->value];
    if (dim.kind == ir::Dim::Kind::kVariadic) {
      unsupported(call.range, "reducing along a dimension of trace-time rank is not supported yet");
      return;
    }
    if (dim.kind != ir::Dim::Kind::kTile) return;
    if (kernel_.tile_dims[dim.tile_dim].block.kind == ir::BlockSource::Kind::kGrid) return;
    capture_mask_values(dim.tile_dim);
    for (const ir::Dim& d : operand.dims) {  // the mask's shape
      if (d.kind == ir::Dim::Kind::kTile) capture(Capture::Kind::kBlock, -1, d.tile_dim);
      if (d.within_axis()) capture(Capture::Kind::kShape, d.binding);
    }
  }

  // A query on a host tensor (`x.dtype`, `x.size(0)`) inside device code: the kernel gets the
  // answer as a captured value. Returns false when `call` is not one.
  bool host_query(const ir::Call& call) {
    const bool query = call.op == Intrinsic::kDtypeOf || call.op == Intrinsic::kSize ||
                       call.op == Intrinsic::kShapeOf || call.op == Intrinsic::kNumel ||
                       call.op == Intrinsic::kNdim;
    if (!query || call.args.empty()) return false;
    const auto* tensor = call.args[0]->as<ir::VarRef>();
    if (tensor == nullptr || !is_host(tensor->binding) ||
        kernel_.bindings[tensor->binding].type.kind != TypeKind::kTensor) {
      return false;
    }
    if (call.op == Intrinsic::kDtypeOf) {
      dtype_queries_.push_back(tensor->binding);
    } else {
      capture(Capture::Kind::kShape, tensor->binding);
    }
    return true;
  }

  void use_value(const ir::VarRef& ref) {
    const Binding& binding = kernel_.bindings[ref.binding];
    switch (binding.origin) {
      case Binding::Origin::kDevice:
        return;
      case Binding::Origin::kLoopVar:
        if (auto it = grid_var_dim_.find(ref.binding); it != grid_var_dim_.end()) {
          if (launch_.program_ids.emplace(ref.binding, grid_axis_.at(it->second)).second) {
            // `b = begin + pl.program_id(axis)`: the kernel needs the start's host values.
            walk_expr(kernel_.tile_dims[it->second].begin);
          }
          return;
        }
        unsupported(ref.range, fmt::format("using the tile `{}` as a value is not supported yet",
                                           binding.name));
        return;
      case Binding::Origin::kParam:
      case Binding::Origin::kHost:
        break;
    }
    switch (binding.type.kind) {
      case TypeKind::kTensor:
        unsupported(ref.range, fmt::format("`{}` is a whole tensor; index it with the loop's "
                                           "tiles (`{}[tile]`) to use it in device code",
                                           binding.name, binding.name));
        return;
      case TypeKind::kTuple:
        unsupported(ref.range, fmt::format("using the tuple `{}` in device code is not "
                                           "supported yet",
                                           binding.name));
        return;
      default:
        capture(Capture::Kind::kValue, ref.binding);
    }
  }

  void capture(Capture::Kind kind, int binding, int tile_dim = -1) {
    for (const Capture& c : launch_.captures) {
      if (c.kind == kind && c.binding == binding && c.tile_dim == tile_dim) return;
    }
    launch_.captures.push_back({kind, binding, tile_dim});
  }

  void walk_index(const ir::Index& index, const ExprPtr& tensor, bool read) {
    const auto* ref = tensor->as<ir::VarRef>();
    const int rank = ref ? kernel_.bindings[ref->binding].type.rank : -1;
    const bool scalars_only = all_scalar(index);
    int axis = 0;
    for (const IndexItem& item : index) {
      const int array_axis = axis;
      if (item.kind != IndexItem::Kind::kNewAxis) ++axis;
      if (item.kind == IndexItem::Kind::kGather) {
        walk_expr(item.scalar);  // the indices are values of the kernel
        continue;
      }
      if (item.kind == IndexItem::Kind::kSlice) {
        // The kernel slices its block with them (host ints, static while it is traced).
        const ir::SliceBounds& bounds = kernel_.slices[static_cast<size_t>(item.slice)];
        walk_expr(bounds.start);
        walk_expr(bounds.stop);
        continue;
      }
      if (item.kind != IndexItem::Kind::kScalar) continue;
      if (moves_in_kernel(item.scalar)) {
        // Its axis is whole in the block; the kernel picks the element (plan_picks.h).
        refuse_moving_scalar_with_inner_tile(index, tensor);
        refuse_moving_scalar_with_gather(index, item, tensor);
        walk_expr(item.scalar);
        continue;
      }
      // A read with scalars alone may go to SMEM (scalar_only_reads), where the kernel indexes
      // with any scalar it computes (`w[j]` in an `hl.static_range`, `table[ids[i]]`); whether
      // it does is known once every access is seen (build_operands checks it then).
      if (read && scalars_only && ref != nullptr && !check_index_scalar(item.scalar, false)) {
        kernel_scalar_reads_.emplace_back(ref->binding, item.scalar);
        walk_expr(item.scalar);
        continue;
      }
      // An index expression runs in the BlockSpec's index map: grid indices and host values only.
      check_index_scalar(item.scalar);
      // The kernel itself uses a scalar on the last axis (it selects the column) and the
      // scalars of a read that may come from SMEM: capture their values.
      if (scalars_only || array_axis == rank - 1) walk_expr(item.scalar);
    }
  }

  // Whether an index scalar changes within one kernel invocation: it reads a tile attribute of
  // an inner loop (`row.begin`), so no index map can hold it (plan_picks.h).
  bool moves_in_kernel(const ExprPtr& expr) const {
    bool moves = false;
    ir::for_each_expr(expr, [&](const ir::Expr& e) {
      const auto* attr = e.as<ir::TileAttr>();
      if (attr == nullptr) return;
      const auto axis = grid_axis_.find(attr->tile_dim);
      moves = moves || (axis != grid_axis_.end() &&
                        launch_.grid[static_cast<size_t>(axis->second)].inner_loop >= 0);
    });
    return moves;
  }

  // An access whose block an inner loop may stream (a tile of an inner loop in its index) is
  // read from the streamed block, where a picked axis has no place yet.
  void refuse_moving_scalar_with_inner_tile(const ir::Index& index, const ExprPtr& tensor) {
    for (const IndexItem& item : index) {
      if (item.kind != IndexItem::Kind::kTile) continue;
      const auto axis = grid_axis_.find(item.tile_dim);
      if (axis == grid_axis_.end() ||
          launch_.grid[static_cast<size_t>(axis->second)].inner_loop < 0) {
        continue;
      }
      const auto* ref = tensor->as<ir::VarRef>();
      unsupported(item.range,
                  fmt::format("indexing `{}` with the tile `{}` of an inner loop together with a "
                              "scalar index that moves inside the kernel (a tile attribute of "
                              "an inner loop) is not supported yet",
                              ref ? name(ref->binding) : std::string("the tensor"),
                              kernel_.tile_dims[item.tile_dim].name));
      return;
    }
  }

  // A gather reads the block as an index map places it, where a picked axis has no place yet.
  void refuse_moving_scalar_with_gather(const ir::Index& index, const IndexItem& scalar,
                                        const ExprPtr& tensor) {
    const bool gathers = std::any_of(index.begin(), index.end(), [](const IndexItem& item) {
      return item.kind == IndexItem::Kind::kGather;
    });
    if (!gathers) return;
    const auto* ref = tensor->as<ir::VarRef>();
    unsupported(scalar.range,
                fmt::format("gathering from `{}` together with a scalar index that moves inside "
                            "the kernel (a tile attribute of an inner loop) is not supported yet",
                            ref ? name(ref->binding) : std::string("the tensor")));
  }

  // Whether a BlockSpec's index map can compute `expr` (grid indices and host values only);
  // where it cannot, the reason is reported when `report`.
  bool check_index_scalar(const ExprPtr& expr, bool report = true) {
    if (!expr) return true;
    if (const auto* ref = expr->as<ir::VarRef>()) {
      const Binding& binding = kernel_.bindings[ref->binding];
      if (grid_var_dim_.count(ref->binding) || is_host(ref->binding)) return true;
      if (!report) return false;
      if (binding.origin == Binding::Origin::kLoopVar) {
        unsupported(ref->range,
                    fmt::format("indexing with the tile `{}` inside an index expression is not "
                                "supported yet",
                                binding.name));
      } else {
        unsupported(ref->range,
                    fmt::format("indexing with `{}`, a value computed in the kernel, is not "
                                "supported yet",
                                binding.name));
      }
      return false;
    }
    switch (expr->kind) {
      case ir::ExprKind::kLoad:
        if (report) {
          unsupported(expr->range,
                      "indexing with a value loaded in the kernel is not supported yet");
        }
        return false;
      case ir::ExprKind::kUnary:
        return check_index_scalar(expr->as<ir::Unary>()->operand, report);
      case ir::ExprKind::kBinary: {
        const bool lhs = check_index_scalar(expr->as<ir::Binary>()->lhs, report);
        return check_index_scalar(expr->as<ir::Binary>()->rhs, report) && lhs;
      }
      case ir::ExprKind::kCall: {
        bool ok = true;
        for (const ExprPtr& arg : expr->as<ir::Call>()->args) {
          ok = check_index_scalar(arg, report) && ok;
        }
        return ok;
      }
      default:
        return true;
    }
  }

  std::string pattern_key(const ir::Index& index) const {
    std::string key;
    for (const IndexItem& item : index) {
      switch (item.kind) {
        case IndexItem::Kind::kTile:
          key += fmt::format("t{},", item.tile_dim);
          break;
        case IndexItem::Kind::kVariadic:
          key += fmt::format("t{}...,", item.tile_dim);
          break;
        case IndexItem::Kind::kFull:
        case IndexItem::Kind::kSlice:  // one operand, whole along the axis; each access slices
          key += ":,";
          break;
        case IndexItem::Kind::kNewAxis:
          key += "None,";
          break;
        case IndexItem::Kind::kScalar:
          key += ir::print_expr(kernel_, item.scalar) + ",";
          break;
        case IndexItem::Kind::kGather:
          key += "gather " + ir::print_expr(kernel_, item.scalar) + ",";
          break;
      }
    }
    return key;
  }

  // ---- operands --------------------------------------------------------------------------

  void build_operands() {
    // Outputs: one per stored array, in order of first store; one index pattern each.
    std::map<int, int> output_of;       // binding -> output
    std::map<int, size_t> first_store;  // binding -> position in accesses_
    const std::map<int, PickedPattern> picked = picked_patterns();
    for (size_t i = 0; i < accesses_.size(); ++i) {
      const Access& access = accesses_[i];
      if (!access.store) continue;
      auto it = output_of.find(access.binding);
      const auto pick = picked.find(access.binding);
      if (it == output_of.end()) {
        Output output;
        if (pick != picked.end()) {
          Access whole = access;
          whole.index = &pick->second.index;
          output.operand = make_operand(whole);
          mark_picked(output, pick->second);
        } else {
          output.operand = make_operand(access);
        }
        output.operand.written = true;
        // Once for a store through one or two (passes::cartesian_scatter) tiles of indices.
        if (std::any_of(output.operand.view.begin(), output.operand.view.end(),
                        [](const ViewAxis& axis) { return axis.gather != nullptr; })) {
          plan_scatter(output, access);
        }
        for (const ViewAxis& axis : output.operand.view) {
          if (axis.kind != ViewAxis::Kind::kColumn) continue;
          unsupported(access.range,
                      fmt::format("storing into one element of the last dimension of `{}` is "
                                  "not supported yet; store a slice (`{}[..., j:j + 1]` as a "
                                  "tile) or transpose the array",
                                  name(access.binding), name(access.binding)));
        }
        output_of[access.binding] = static_cast<int>(launch_.outputs.size());
        first_store[access.binding] = i;
        launch_.outputs.push_back(std::move(output));
        it = output_of.find(access.binding);
      } else if (pick != picked.end()) {
        // Every store of the array agrees with the picked pattern (plan_picks.h).
      } else if (launch_.outputs[it->second].operand.index.size() != access.index->size() ||
                 pattern_key(launch_.outputs[it->second].operand.index) != access.pattern) {
        unsupported(access.range,
                    fmt::format("storing into `{}` with two different index patterns in one "
                                "loop is not supported yet",
                                name(access.binding)));
        continue;
      }
      launch_.stores[access.store_node] = it->second;
    }

    // A store under an `if` on a device value may not run: the block must hold the array's old
    // contents first (a fresh `empty` array has none to keep).
    for (const Access& access : accesses_) {
      if (access.store && access.under_device_if && !is_fresh(access.binding)) {
        launch_.outputs[output_of.at(access.binding)].copied_in_at_entry = true;
      }
    }

    // Outputs read before they are stored whose block several grid steps update.
    for (size_t i = 0; i < accesses_.size(); ++i) {
      const Access& access = accesses_[i];
      auto out = output_of.find(access.binding);
      if (access.store || out == output_of.end() || i > first_store.at(access.binding)) continue;
      Output& output = launch_.outputs[out->second];
      if (output.revisiting_dims.empty())
        output.revisiting_dims = dims_not_indexing(output.operand);
      // `for k in range(3): out[tile] += ...`: the read comes first in the body, but from the
      // second iteration on it must see the store of the one before.
      const Access& store = accesses_[first_store.at(access.binding)];
      for (int loop : access.static_loops) {
        if (std::find(store.static_loops.begin(), store.static_loops.end(), loop) !=
            store.static_loops.end()) {
          output.copied_in_at_entry = true;
        }
      }
      // So with an inner tile loop around both that does not move the block (`for tile_j in
      // hl.tile(n): out[seg, :] = out[seg, :] + ...`): each step stores the block the next
      // one reads. (A block that grid steps revisit is read from the output ref already.)
      if (output.revisiting_dims.empty() &&
          revisits_in_inner_loop(access.inner_loop, store.inner_loop, output.operand)) {
        output.copied_in_at_entry = true;
      }
    }
    // Blocks that the stores write only part of stay resident while consecutive steps share
    // them, and start from the old contents.
    for (Output& output : launch_.outputs) {
      if (!output.copies_in && leaves_slices_unwritten(output.operand.binding)) {
        output.copies_in = true;
      }
      if (output.copies_in && output.revisiting_dims.empty()) {
        output.revisiting_dims = dims_not_indexing(output.operand);
      }
    }

    // Inputs: one per (array, pattern) read, in order of first read; reads of an output go to
    // the output (after its first store, or always when steps revisit its block) or to its
    // aliased input (before).
    std::map<std::pair<int, std::string>, int> input_of;
    const std::set<int> scalar_only = scalar_only_reads(output_of);
    // Reads indexed with scalars the kernel computes need their array in SMEM.
    for (const auto& [binding, scalar] : kernel_scalar_reads_) {
      if (!scalar_only.count(binding)) check_index_scalar(scalar);
    }
    std::map<int, int> aliased_input_of;  // output -> input
    for (size_t i = 0; i < accesses_.size(); ++i) {
      const Access& access = accesses_[i];
      if (access.store) continue;
      if (auto out = output_of.find(access.binding); out != output_of.end()) {
        Output& output = launch_.outputs[out->second];
        std::optional<ir::Index> unpicked;
        if (const auto pick = picked.find(access.binding); pick != picked.end()) {
          unpicked = unpicked_index(*access.index, pick->second);
        }
        const std::string pattern = unpicked ? pattern_key(*unpicked) : access.pattern;
        if (pattern_key(output.operand.index) != pattern) {
          unsupported(access.range,
                      fmt::format("reading `{}` with another index than it is written with in "
                                  "the same loop is not supported yet",
                                  name(access.binding)));
          continue;
        }
        output.operand.read = true;
        if (output.copies_in) {
          // The block holds the old contents from the first visit on (Output::picks).
          launch_.loads[access.load] = {true, out->second};
          continue;
        }
        const bool revisited = !output.revisiting_dims.empty() || output.copied_in_at_entry;
        if (i > first_store.at(access.binding) && !revisited) {
          launch_.loads[access.load] = {true, out->second};
          continue;
        }
        auto alias = aliased_input_of.find(out->second);
        if (alias == aliased_input_of.end()) {
          Input input;
          input.kind = Input::Kind::kAliasedRead;
          input.operand = output.operand;
          input.operand.written = false;
          input.operand.read = true;
          input.output = out->second;
          alias =
              aliased_input_of.emplace(out->second, static_cast<int>(launch_.inputs.size())).first;
          launch_.inputs.push_back(std::move(input));
        }
        // A revisited block is copied in from the alias at the first visit, then read back.
        launch_.loads[access.load] = {revisited, revisited ? out->second : alias->second};
        continue;
      }
      // An array read only as scalars lives in SMEM, whole: one ref for all its reads.
      const bool smem = scalar_only.count(access.binding) > 0;
      // Scalars that move in the kernel pick from a whole axis; reads that agree otherwise
      // share the block (a `:` read of it picks nothing).
      const std::optional<PickedPattern> moving =
          smem ? std::nullopt : picked_read_pattern(*access.index, [this](const ExprPtr& e) {
            return moves_in_kernel(e);
          });
      auto key = std::make_pair(access.binding, smem     ? std::string("smem")
                                                : moving ? pattern_key(moving->index)
                                                         : access.pattern);
      auto it = input_of.find(key);
      if (it == input_of.end()) {
        Input input;
        if (smem) {
          input.operand.binding = access.binding;
          input.operand.index = *access.index;
          input.operand.range = access.range;
          input.operand.smem = true;
        } else if (std::optional<FlatPick> pick =
                       flat_pick(kernel_, facts_, access.binding, *access.index, device_values_,
                                 grid_axis_)) {
          // `flat[tile.index * n + col]` on `flat = x.view(-1)`: `x[tile, col]`, one element
          // per row, read from the 2-D array with whole rows.
          Access rewritten = access;
          rewritten.binding = pick->base;
          rewritten.index = &pick->index;
          input.operand = make_operand(rewritten);
        } else if (moving) {
          Access whole = access;
          whole.index = &moving->index;
          input.operand = make_operand(whole);
        } else {
          input.operand = make_operand(access);
        }
        input.operand.read = true;
        it = input_of.emplace(key, static_cast<int>(launch_.inputs.size())).first;
        launch_.inputs.push_back(std::move(input));
      }
      if (moving) {
        mark_picked_axes(launch_.inputs[static_cast<size_t>(it->second)].operand, *moving);
      }
      launch_.loads[access.load] = {false, it->second};
    }
    if (failed_) return;

    // Outputs that keep old contents come in aliased.
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      Output& output = launch_.outputs[o];
      const int binding = output.operand.binding;
      const ir::Stmt* def = facts_.definition(binding);
      const auto* alloc = def ? def->as<ir::Alloc>() : nullptr;
      // A fresh `empty` array has no values to keep: blocks may spill garbage outside the range.
      const bool fresh = is_fresh(binding);
      Coverage coverage = coverage_of(output.operand);
      const bool in_place = stores_through_jagged_loop(output, fresh);
      if (coverage == Coverage::kBeyond && !fresh && !in_place && output.operand.variadic) {
        // Checked to have the loop's shape while JAX traces (Output::checked_loop_shape).
        output.checked_loop_shape = true;
        coverage = Coverage::kFull;
      }
      if (coverage == Coverage::kBeyond && !fresh && !in_place) {
        for (size_t a = 0; a < output.operand.view.size(); ++a) {
          const ViewAxis& axis = output.operand.view[a];
          if (axis.kind == ViewAxis::Kind::kTile &&
              !covers(axis.tile_dim, binding, axis.array_axis)) {
            const bool inner =
                launch_.grid[static_cast<size_t>(grid_axis_.at(axis.tile_dim))].inner_loop >= 0;
            if (inner && output.operand.read) {
              unsupported(output.operand.range,
                          fmt::format("storing into `{}` from an inner loop that may not cover "
                                      "its axis {} while the loop also reads `{}` is not "
                                      "supported yet (allocate it with `torch.empty` or loop "
                                      "over the whole axis)",
                                      name(binding), axis.array_axis, name(binding)));
              break;
            }
            output.masked_axes.push_back(static_cast<int>(a));
            capture_mask_values(axis.tile_dim);
            if (inner) mask_in_resident_block(output);
          }
        }
      }
      if (auto alias = aliased_input_of.find(static_cast<int>(o));
          alias != aliased_input_of.end()) {
        output.aliased_input = alias->second;
        output.alias_reason = "read";
        continue;
      }
      if (((coverage == Coverage::kFull && !output.copies_in) || fresh) &&
          !output.copied_in_at_entry) {
        continue;
      }
      // Picked blocks are copied in from the alias at their first visit.
      const bool masked = !output.masked_axes.empty() || output.copies_in;
      const bool read = masked || output.copied_in_at_entry;
      Input input;
      input.kind = read ? Input::Kind::kAliasedRead : Input::Kind::kAliasedUnread;
      input.operand = output.operand;
      input.operand.written = false;
      input.operand.read = read;
      input.output = static_cast<int>(o);
      output.aliased_input = static_cast<int>(launch_.inputs.size());
      output.alias_reason = output.copies_in ? "partly written, copied in"
                            : masked         ? "masked"
                            : alloc && alloc->fill && !written_before_.count(binding)
                                ? "initialised"
                                : "partly written";
      launch_.inputs.push_back(std::move(input));
    }
  }

  // The picked patterns of the arrays the launch stores into (plan_picks.h), by binding.
  std::map<int, PickedPattern> picked_patterns() const {
    std::map<int, std::vector<const ir::Index*>> stores;
    for (const Access& access : accesses_) {
      if (access.store) stores[access.binding].push_back(access.index);
    }
    std::map<int, PickedPattern> patterns;
    for (const auto& [binding, indices] : stores) {
      const ir::Type& type = kernel_.bindings[binding].type;
      if (!type.rank_known() || launch_.variadic) continue;
      if (std::optional<PickedPattern> pattern =
              picked_pattern(kernel_, indices, type.rank,
                             [this](const ExprPtr& e) { return moves_in_kernel(e); })) {
        patterns.emplace(binding, std::move(*pattern));
      }
    }
    return patterns;
  }

  // A store through a tile of indices (`out[ids[tile], tile_n] = v`): the gathered axis is
  // whole in the block (ViewAxis::gather), which the stores rewrite with a one-hot scatter
  // (`_scatter`) from the first visit on, as picked stores do (Output::picks). Indices of a
  // partial block's padding are masked out, so the kernel needs their loop's range.
  void plan_scatter(Output& output, const Access& access) {
    if (output.copies_in) {
      unsupported(access.range,
                  fmt::format("storing into `{}` through a tile of indices and at single "
                              "elements in one loop is not supported yet",
                              name(access.binding)));
      return;
    }
    output.copies_in = true;
    for (const ViewAxis& axis : output.operand.view) {
      if (!axis.gather) continue;
      for (const ir::Dim& dim : axis.gather->type.dims) {
        if (dim.kind == ir::Dim::Kind::kTile) capture_mask_values(dim.tile_dim);
      }
    }
  }

  // Marks the output's picked view axes; the kernel computes the picking scalars of every
  // store and read, so it captures what they use.
  void mark_picked(Output& output, const PickedPattern& pattern) {
    output.copies_in = true;
    mark_picked_axes(output.operand, pattern);
    for (const Access& access : accesses_) {
      if (access.binding != output.operand.binding) continue;
      int scatters = 0;
      int puts = 0;
      for (int p : pattern.positions) {
        if (static_cast<size_t>(p) >= access.index->size()) break;
        const IndexItem& item = (*access.index)[static_cast<size_t>(p)];
        if (item.kind == IndexItem::Kind::kScalar) {
          walk_expr(item.scalar);
          ++puts;
        }
        if (item.kind == IndexItem::Kind::kGather) ++scatters;
        if (item.kind != IndexItem::Kind::kTile) continue;
        ++scatters;
        const auto grid = grid_axis_.find(item.tile_dim);
        if (grid == grid_axis_.end()) {
          unsupported(item.range, "indexing with a tile of another loop is not supported");
          return;
        }
        if (launch_.grid[static_cast<size_t>(grid->second)].inner_loop >= 0) {
          unsupported(item.range,
                      fmt::format("storing into `{}` with the tile `{}` of an inner loop on an "
                                  "axis that other stores index differently is not supported "
                                  "yet",
                                  name(access.binding), kernel_.tile_dims[item.tile_dim].name));
          return;
        }
        // Stored as a scatter at the tile's indices; its padding stores nothing.
        capture_mask_values(item.tile_dim);
      }
      if (scatters == 0 || !access.store) continue;
      if (scatters > 1 || puts > 0 || output.operand.kernel_rank() > 2) {
        unsupported(access.range,
                    fmt::format("storing into `{}` with two different index patterns in one "
                                "loop is not supported yet here: a store that scatters along "
                                "an axis the other stores index differently must index the "
                                "array's other axes alike, and the block may have at most two "
                                "axes",
                                name(access.binding)));
        return;
      }
    }
  }

  static void mark_picked_axes(Operand& operand, const PickedPattern& pattern) {
    for (ViewAxis& axis : operand.view) {
      if (std::find(pattern.positions.begin(), pattern.positions.end(), axis.array_axis) !=
          pattern.positions.end()) {
        axis.picked = true;
      }
    }
  }

  // Stores of slices (`dst[tile, :16]`) write part of a block that is whole along the sliced
  // axis, and the block goes back whole: unless the array is fresh, a block whose slices the
  // launch's stores may not cover starts from the old contents (Output::copies_in).
  bool leaves_slices_unwritten(int binding) const {
    if (is_fresh(binding)) return false;
    std::vector<SliceStore> stores;
    for (const Access& access : accesses_) {
      if (access.store && access.binding == binding) {
        stores.push_back({access.index, access.conditional});
      }
    }
    return uncovered_slice(kernel_, stores).has_value();
  }

  // The launch's own grid dimensions (indices into Launch::grid) that no axis of `operand`'s
  // view is indexed by: consecutive steps along them see the same block.
  // Whether an inner loop around both `read_loop` and `store_loop` (Access::inner_loop) runs
  // its steps over one block of `operand`: none of its dimensions index it.
  bool revisits_in_inner_loop(int read_loop, int store_loop, const Operand& operand) const {
    std::set<int> around_store;
    for (int loop = store_loop; loop >= 0; loop = launch_.inner_loops[loop].parent) {
      around_store.insert(loop);
    }
    const std::set<int> indexing = indexing_dims(operand);
    for (int loop = read_loop; loop >= 0; loop = launch_.inner_loops[loop].parent) {
      if (!around_store.count(loop)) continue;
      const std::vector<int>& dims = launch_.inner_loops[loop].tile_loop().tile_dims;
      if (std::none_of(dims.begin(), dims.end(), [&](int d) { return indexing.count(d); })) {
        return true;
      }
    }
    return false;
  }

  std::vector<int> dims_not_indexing(const Operand& operand) const {
    const std::set<int> indexing = indexing_dims(operand);
    std::vector<int> dims;
    if (operand.variadic) return dims;
    const size_t own = launch_.tile_loop().tile_dims.size();
    for (size_t g = 0; g < own; ++g) {
      if (!indexing.count(launch_.grid[g].tile_dim)) dims.push_back(static_cast<int>(g));
    }
    return dims;
  }

  // The tile dimensions whose position selects `operand`'s block: its tiles, and those its
  // scalar indices read (`tile_b.begin`, an `hl.grid` variable).
  std::set<int> indexing_dims(const Operand& operand) const {
    std::set<int> indexing;
    for (const ViewAxis& axis : operand.view) {
      if (axis.kind == ViewAxis::Kind::kTile) indexing.insert(axis.tile_dim);
      if (!axis.scalar) continue;
      ir::for_each_expr(axis.scalar, [&](const ir::Expr& expr) {
        if (const auto* attr = expr.as<ir::TileAttr>()) {  // `tile_b.begin` in the index map
          indexing.insert(attr->tile_dim);
          return;
        }
        const auto* ref = expr.as<ir::VarRef>();
        if (!ref) return;
        if (auto it = grid_var_dim_.find(ref->binding); it != grid_var_dim_.end()) {
          indexing.insert(it->second);
        }
      });
    }
    return indexing;
  }

  // Arrays of static rank that the launch only reads, always with scalars alone (`scale[0]`,
  // `table[i, j]`): they go to SMEM whole.
  std::set<int> scalar_only_reads(const std::map<int, int>& output_of) const {
    std::set<int> scalar;
    std::set<int> other;
    for (const Access& access : accesses_) {
      if (access.store || output_of.count(access.binding)) continue;
      const ir::Type& type = kernel_.bindings[access.binding].type;
      const bool ok = type.rank_known() && all_scalar(*access.index) &&
                      static_cast<int>(access.index->size()) == type.rank;
      (ok ? scalar : other).insert(access.binding);
    }
    for (int binding : other) scalar.erase(binding);
    return scalar;
  }

  // Whether `binding` is an `empty` array (or a view of one) that no launch wrote yet.
  bool is_fresh(int binding) const {
    if (written_before_.count(binding)) return false;
    const ir::Stmt* def = facts_.definition(binding);
    if (def == nullptr) return false;
    if (const auto* alloc = def->as<ir::Alloc>()) return !alloc->fill;
    const auto* let = def->as<ir::Let>();
    if (let->unpack) return false;
    const ExprPtr& value = let->value;
    if (const auto* ref = value->as<ir::VarRef>()) return is_fresh(ref->binding);
    const auto* call = value->as<ir::Call>();
    if (call == nullptr || call->args.empty()) return false;
    const bool view = call->op == Intrinsic::kReshape || call->op == Intrinsic::kPermute ||
                      call->op == Intrinsic::kSwapAxes || call->op == Intrinsic::kUnsqueeze ||
                      call->op == Intrinsic::kSqueeze;
    const auto* base = call->args[0]->as<ir::VarRef>();
    return view && base != nullptr && is_fresh(base->binding);
  }

  // A mask compares element indices with the loop's range: the kernel needs the block size,
  // the start and the end.
  void capture_mask_values(int tile_dim) {
    capture(Capture::Kind::kBlock, -1, tile_dim);
    const ir::TileDim& dim = kernel_.tile_dims[tile_dim];
    if (ir::has_begin(dim)) walk_expr(dim.begin);
    walk_expr(dim.extent);
  }

  // An inner loop that may not cover an output's axis (`hl.tile(m)` over a parameter whose
  // length is not provably m) writes windows of a block that holds the whole axis while the
  // loop runs: the block starts from the old contents (Output::copies_in), and each store keeps
  // them outside the loop's range (Output::masked_in_place: the mask reads the inner loop's
  // indices, so it is made at the store).
  void mask_in_resident_block(Output& output) {
    output.masked_in_place = true;
    output.copies_in = true;
    if (output.revisiting_dims.empty()) output.revisiting_dims = dims_not_indexing(output.operand);
  }

  // An output tiled by an inner loop whose bounds are read from tensors (ir::bounds_from_tensors)
  // is masked against its own block (Output::masked_in_place). Only a fresh `empty` array can
  // be: its block's first contents are undefined anyway, while the old values of any other
  // array would have to be copied into the resident block first. Whether it was handled so.
  bool stores_through_jagged_loop(Output& output, bool fresh) {
    for (size_t a = 0; a < output.operand.view.size(); ++a) {
      const ViewAxis& axis = output.operand.view[a];
      if (axis.kind != ViewAxis::Kind::kTile) continue;
      const ir::TileDim& dim = kernel_.tile_dims[axis.tile_dim];
      if (dim.paired_with >= 0) {
        // Its windows start at the loop's begin (GridDim::from_begin): a resident block and
        // a write-back for such windows are not made.
        unsupported(output.operand.range,
                    fmt::format("storing into `{}` through the tile `{}`, whose rows the kernel "
                                "pairs with those of `{}` (its blocks start at the loop's "
                                "begin), is not supported yet",
                                name(output.operand.binding), dim.name,
                                kernel_.tile_dims[dim.paired_with].name));
        return true;
      }
      if (!ir::bounds_from_tensors(dim)) continue;
      if (!fresh) {
        unsupported(output.operand.range,
                    fmt::format("storing into `{0}` from the loop over `{1}`, whose bounds are "
                                "read from tensors, is not supported yet unless `{0}` is a fresh "
                                "`torch.empty` array (its values outside the loop's range would "
                                "have to be copied into the shared blocks first); allocate `{0}` "
                                "with `torch.empty` or `torch.empty_like`",
                                name(output.operand.binding), dim.name));
        return true;
      }
      output.masked_axes.push_back(static_cast<int>(a));
      output.masked_in_place = true;
      capture_mask_values(axis.tile_dim);
    }
    return output.masked_in_place;
  }

  // How much of an output's array the loop's blocks write.
  enum class Coverage {
    kFull,     // every element
    kPartial,  // some elements, and no block writes outside the loop's range
    kBeyond,   // blocks may write elements outside the loop's range (needs masked stores)
  };

  Coverage coverage_of(const Operand& operand) const {
    const int binding = operand.binding;
    if (operand.variadic) {
      const ir::TileDim& dim = kernel_.tile_dims[launch_.grid.front().tile_dim];
      const auto root = facts_.shape_root_of(dim.extent);
      return root && *root == facts_.shape_root(binding) ? Coverage::kFull : Coverage::kBeyond;
    }
    Coverage coverage = Coverage::kFull;
    for (const ViewAxis& axis : operand.view) {
      switch (axis.kind) {
        case ViewAxis::Kind::kFull:
        case ViewAxis::Kind::kUnit:
          break;
        case ViewAxis::Kind::kColumn:  // outputs never have one
          coverage = Coverage::kPartial;
          break;
        case ViewAxis::Kind::kTile:
          if (!covers(axis.tile_dim, binding, axis.array_axis)) return Coverage::kBeyond;
          break;
        case ViewAxis::Kind::kScalar: {
          const auto* ref = axis.scalar->as<ir::VarRef>();
          auto grid = ref ? grid_var_dim_.find(ref->binding) : grid_var_dim_.end();
          if (grid == grid_var_dim_.end() || !covers(grid->second, binding, axis.array_axis)) {
            coverage = Coverage::kPartial;
          }
          break;
        }
      }
    }
    return coverage;
  }

  // Whether tile dimension `dim` provably runs over all of axis `axis` of `binding`.
  bool covers(int dim, int binding, int axis) const {
    return tile_covers(kernel_, facts_, dim, binding, axis);
  }

  Operand make_operand(const Access& access) {
    Operand operand;
    operand.binding = access.binding;
    operand.index = *access.index;
    operand.range = access.range;
    const ir::Type& type = kernel_.bindings[access.binding].type;
    const ir::Index& index = *access.index;
    const bool variadic = std::any_of(index.begin(), index.end(), [](const IndexItem& item) {
      return item.kind == IndexItem::Kind::kVariadic;
    });
    // An element read as a scalar (`scale = s.item()`, `b[0]`) needs no tile: it is an
    // operand of its own, of the known rank it was read with, in any launch.
    const bool scalars_only =
        !variadic && type.rank_known() && static_cast<int>(index.size()) == type.rank &&
        std::all_of(index.begin(), index.end(),
                    [](const IndexItem& item) { return item.kind == IndexItem::Kind::kScalar; });
    if ((launch_.variadic || variadic) && !scalars_only) {
      if (!(launch_.variadic && index.size() == 1 && variadic)) {
        unsupported(access.range,
                    fmt::format("in a rank-polymorphic `hl.tile(x.size())` loop, index `{}` "
                                "with the loop's tile alone (`{}[tile]`); other index patterns "
                                "are not supported yet",
                                name(access.binding), name(access.binding)));
      }
      operand.variadic = true;
      return operand;
    }
    if (!type.rank_known()) {
      unsupported(access.range,
                  fmt::format("the rank of `{}` is only known at trace time; index it with a "
                              "rank-polymorphic tile (`{}[tile]`)",
                              name(access.binding), name(access.binding)));
      return operand;
    }
    for (const IndexItem& item : operand.index) {
      if (item.kind == IndexItem::Kind::kTile && !grid_axis_.count(item.tile_dim)) {
        unsupported(item.range, "indexing with a tile of another loop is not supported");
        return operand;
      }
    }
    // Kept blocks of one element of the launch's own loop (grid steps, never resident).
    const auto one_row = [&](int tile_dim) {
      return launch_.grid[static_cast<size_t>(grid_axis_.at(tile_dim))].inner_loop < 0 &&
             keeps_block_of_one(kernel_, kernel_.tile_dims[static_cast<size_t>(tile_dim)]);
    };
    if (std::optional<ViewError> error =
            build_view(operand, type.rank, name(access.binding), access.store, one_row)) {
      unsupported(error->range, error->message);
    }
    return operand;
  }

  // A row gather that may copy its rows by DMA (plan_gathers.h): the indices whole in SMEM, the
  // trace-time choice and the block positions the copies need.
  void add_dma_gather(const DmaGather& gather) {
    Input ids;
    ids.operand.binding = gather.ids_binding;
    ids.operand.index = gather.ids_index;
    ids.operand.range = gather.range;
    ids.operand.smem = true;
    ids.operand.read = true;
    ids.gather_ids_of = gather.input;
    launch_.inputs[static_cast<size_t>(gather.input)]
        .operand.view[static_cast<size_t>(gather.axis)]
        .dma_ids = static_cast<int>(launch_.inputs.size());
    launch_.inputs.push_back(std::move(ids));
    Capture by_dma;
    by_dma.kind = Capture::Kind::kGatherByDma;
    by_dma.binding = launch_.inputs[static_cast<size_t>(gather.input)].operand.binding;
    by_dma.input = gather.input;
    launch_.captures.push_back(by_dma);
    for (int tile_dim : gather.tile_dims) capture_mask_values(tile_dim);
  }

  // ---- facts ---------------------------------------------------------------------------

  void resolve_captures() {
    // `x.dtype` in the body: the ref's dtype when `x` is a VMEM operand, else a captured value
    // (an SMEM ref holds 16-bit arrays widened to 32 bits).
    for (int binding : dtype_queries_) {
      bool operand = false;
      for (const Input& input : launch_.inputs) {
        operand |= input.operand.binding == binding && !input.operand.smem;
      }
      for (const Output& output : launch_.outputs) operand |= output.operand.binding == binding;
      if (!operand) capture(Capture::Kind::kDtype, binding);
    }
  }

  const ir::Kernel& kernel_;
  const ShapeFacts& facts_;
  DiagnosticEngine& diags_;
  const std::set<int>& written_before_;
  bool failed_ = false;
  Launch launch_;
  std::map<int, int> grid_axis_;     // tile dim -> grid axis
  std::map<int, int> grid_var_dim_;  // hl.grid loop variable -> its tile dim
  std::vector<Access> accesses_;
  std::vector<int> dtype_queries_;
  std::map<int, ExprPtr> device_values_;  // device binding -> the value it was bound to
  // Reads with scalars alone whose index the kernel computes: (array, scalar); the array must
  // go to SMEM (build_operands).
  std::vector<std::pair<int, ExprPtr>> kernel_scalar_reads_;
  int current_inner_ = -1;         // the inner loop being walked
  int if_depth_ = 0;               // `if`s around the statement being walked
  std::vector<int> static_loops_;  // ids of the static loops around it
  int device_if_depth_ = 0;        // `if`s on device values around it
  int next_static_loop_ = 0;
};

}  // namespace

namespace {

// Plans the tile loops of a host block (and of the static branches in it), in program order.
class KernelPlanner {
 public:
  KernelPlanner(const ir::Kernel& kernel, DiagnosticEngine& diags)
      : kernel_(kernel), facts_(kernel), diags_(diags) {}

  bool plan_block(const ir::Block& block, KernelPlan& plan) {
    bool ok = true;
    for (const ir::StmtPtr& stmt : block) {
      if (const auto* branch = stmt->as<ir::If>()) {
        // Each branch starts from what was written before the `if`; after it, an array
        // either branch wrote counts as written.
        const std::set<int> before = written_;
        ok &= plan_block(branch->then_body, plan);
        std::set<int> after = written_;
        written_ = before;
        ok &= plan_block(branch->else_body, plan);
        written_.insert(after.begin(), after.end());
        continue;
      }
      if (stmt->kind != ir::StmtKind::kTileLoop) continue;
      LaunchPlanner planner(kernel_, facts_, diags_, written_);
      std::optional<Launch> launch = planner.plan(stmt, static_cast<int>(plan.launches.size()));
      if (!launch) {
        ok = false;
        continue;
      }
      for (const Output& output : launch->outputs) written_.insert(output.operand.binding);
      plan.launch_of[stmt.get()] = static_cast<int>(plan.launches.size());
      plan.launches.push_back(std::move(*launch));
    }
    return ok;
  }

 private:
  const ir::Kernel& kernel_;
  const ShapeFacts facts_;
  DiagnosticEngine& diags_;
  std::set<int> written_;  // arrays written by earlier launches
};

}  // namespace

std::optional<KernelPlan> plan_launches(const ir::Module& module, int kernel_index,
                                        DiagnosticEngine& diags) {
  const ir::Kernel& kernel = module.kernels[kernel_index];
  KernelPlan plan;
  plan.kernel = kernel_index;
  if (!KernelPlanner(kernel, diags).plan_block(kernel.body, plan)) return std::nullopt;
  return plan;
}

}  // namespace helionc::passes
