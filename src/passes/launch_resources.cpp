#include "passes/launch_resources.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "ir/visitor.h"
#include "passes/held_blocks.h"
#include "passes/inner_trips.h"
#include "passes/legal_block.h"
#include "passes/plan_hoists.h"
#include "passes/plan_lane_rows.h"
#include "passes/vmem_formula.h"
#include "support/checked_int.h"

namespace helionc::passes {

namespace {

// Thrown inside the accountant when a figure cannot be computed; caught in account_launch.
struct Unknown {
  std::string what;
};

int64_t checked_mul(int64_t a, int64_t b) {
  std::optional<int64_t> result = helionc::checked_mul(a, b);
  if (!result) throw Unknown{"a figure overflows 64 bits"};
  return *result;
}

int64_t cdiv(int64_t a, int64_t b) { return ceil_div(a, b); }

class Accountant {
 public:
  Accountant(const ir::Kernel& kernel, const Launch& launch, const LaunchSchedule& schedule,
             const HostValues& values, const LaunchChoices& choices)
      : kernel_(kernel), launch_(launch), schedule_(schedule), values_(values), choices_(choices) {}

  LaunchResources run() {
    if (launch_.variadic) {
      throw Unknown{"the launch tiles `hl.tile(x.size())`, whose rank is only known at trace time"};
    }
    dims();
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      const Input& input = launch_.inputs[i];
      if (input.kind == Input::Kind::kAliasedUnread) {
        OperandResources r;
        r.kind = OperandResources::Kind::kInput;
        r.name = name(input.operand.binding);
        r.memory = memory_space_name(schedule_.inputs[i].memory);
        r.note = "aliased to the output, not copied";
        r.dtype = dtype(input.operand.binding);
        result_.operands.push_back(std::move(r));
        continue;
      }
      operand(input.operand, schedule_.inputs[i], OperandResources::Kind::kInput);
    }
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      operand(launch_.outputs[o].operand, schedule_.outputs[o], OperandResources::Kind::kOutput);
    }
    scratch();
    for (const OperandResources& r : result_.operands) {
      result_.smem_bytes += r.smem_bytes;
      result_.hbm_bytes += r.hbm_bytes;
    }
    // The launch's VMEM is its formula's value: the module checks the same formula while JAX
    // traces (vmem_formula.h).
    result_.vmem_bytes =
        evaluate(known(launch_vmem(kernel_, launch_, schedule_, choices_.lane_move_scratch_bytes)));
    // Each left out of launch_vmem too when it has no formula.
    if (Expected<SizeExpr> bytes = narrow_values_vmem(launch_)) {
      result_.narrow_value_bytes = evaluate(*bytes);
    }
    for (const NarrowValue& value : launch_.narrow_values) result_.narrow_values += value.count;
    if (Expected<SizeExpr> bytes = sorts_vmem(launch_)) result_.sort_bytes = evaluate(*bytes);
    result_.sorted_shapes = static_cast<int>(launch_.sorted_rows.size());
    if (Expected<SizeExpr> bytes = one_hots_vmem(launch_)) result_.one_hot_bytes = evaluate(*bytes);
    result_.one_hots = static_cast<int>(launch_one_hots(launch_).size());
    if (Expected<SizeExpr> bytes = reductions_vmem(launch_)) {
      result_.reduction_bytes = evaluate(*bytes);
    }
    result_.reduced_shapes = static_cast<int>(launch_reduced_blocks(launch_).size());
    if (Expected<SizeExpr> bytes = products_vmem(launch_)) result_.product_bytes = evaluate(*bytes);
    result_.precise_products = precise_product_count(launch_);
    if (Expected<SizeExpr> bytes = random_draws_vmem(launch_))
      result_.random_bytes = evaluate(*bytes);
    result_.random_draws = launch_random_draws(launch_).draws;
    result_.lane_move_bytes =
        evaluate(lane_moves_vmem(kernel_, launch_, schedule_, choices_.lane_move_scratch_bytes));
    result_.lane_moves = static_cast<int>(launch_lane_moves(launch_).size());
    if (Expected<SizeExpr> bytes = hoisted_values_vmem(kernel_, launch_, schedule_)) {
      result_.hoisted_bytes = evaluate(*bytes);
    }
    for (const std::vector<HoistedValue>& values : schedule_.hoisted) {
      result_.hoisted_values += static_cast<int>(values.size());
    }
    // The work on lane rows over their other 127 lanes counts too (plan_lane_rows.h).
    const LaunchCost lanes = lane_row_cost(launch_, schedule_.lane_rows);
    // Work moved before an inner loop runs once per step of the loops around it (plan_hoists.h).
    const HoistedWork moved = hoisted_work(launch_, schedule_);
    const auto total = [&](std::vector<CostTerm> LaunchCost::*terms) {
      return cost(launch_.cost.*terms) + cost(lanes.*terms) - cost(moved.in_loop.*terms) +
             cost(moved.before_loop.*terms);
    };
    result_.flops = total(&LaunchCost::flops);
    result_.transcendentals = total(&LaunchCost::transcendentals);
    result_.divisions = total(&LaunchCost::divisions);
    products();
    return std::move(result_);
  }

 private:
  int64_t need(std::optional<int64_t> value, const std::string& what) const {
    if (!value) throw Unknown{what + " is not known at compile time"};
    return *value;
  }

  std::string name(int binding) const { return kernel_.bindings[binding].name; }

  void check_given(int binding) const {
    if (values_.absent_optional(binding)) {
      throw Unknown{fmt::format("`{}` is None in this call (the launch runs only when it is given)",
                                name(binding))};
    }
  }

  // Memoised: the accounting asks for the same few sizes many times, and a size the host
  // code computes (a reshape) is evaluated from its definition each time.
  int64_t axis_size(int binding, int axis) const {
    const auto key = std::make_pair(binding, axis);
    if (auto known = axis_sizes_.find(key); known != axis_sizes_.end()) return known->second;
    check_given(binding);
    const int64_t size = need(values_.axis_size(binding, axis),
                              fmt::format("the size of axis {} of `{}`", axis, name(binding)));
    axis_sizes_.emplace(key, size);
    return size;
  }

  ir::ScalarType dtype(int binding) const {
    check_given(binding);
    auto type = values_.dtype(binding);
    if (!type) {
      throw Unknown{fmt::format("the dtype of `{}` is not known at compile time", name(binding))};
    }
    return *type;
  }

  int64_t host_int(const ir::ExprPtr& expr, const std::string& what) const {
    return need(values_.int_value(expr), what);
  }

  // The leaves of the VMEM formulas for this call.
  class Leaves final : public SizeLeaves {
   public:
    explicit Leaves(const Accountant& accountant) : a_(accountant) {}
    int64_t block(int launch_dim) const override {
      return a_.blocks_[static_cast<size_t>(launch_dim)];
    }
    int64_t axis_size(int binding, int axis) const override { return a_.axis_size(binding, axis); }
    int64_t item_size(int binding) const override { return vmem_item_bytes(a_.dtype(binding)); }
    int64_t buffers(int inner_loop) const override { return a_.buffer_count(inner_loop); }
    int64_t extent(int launch_dim) const override {
      return a_.extents_[static_cast<size_t>(launch_dim)];
    }
    int64_t computed(int size) const override { return a_.computed_size(size); }

   private:
    const Accountant& a_;
  };

  template <typename T>
  static T known(Expected<T> formula) {
    if (!formula) throw Unknown{formula.error()};
    return std::move(*formula);
  }

  int64_t evaluate(const SizeExpr& expr) const {
    std::optional<int64_t> value = evaluate_size(expr, Leaves(*this));
    if (!value) throw Unknown{"a figure overflows 64 bits"};
    return *value;
  }

  // ---- dimensions -----------------------------------------------------------------------

  // The earlier launch dimension whose tile `dim` spans exactly (`hl.tile(o.begin, o.end)`).
  std::optional<size_t> spanned_outer(const ir::TileDim& dim, size_t g) const {
    const auto* begin = dim.begin ? dim.begin->as<ir::TileAttr>() : nullptr;
    const auto* end = dim.extent ? dim.extent->as<ir::TileAttr>() : nullptr;
    if (!begin || !end || begin->attr != ir::TileAttrKind::kBegin ||
        end->attr != ir::TileAttrKind::kEnd || begin->tile_dim != end->tile_dim) {
      return std::nullopt;
    }
    for (size_t o = 0; o < g; ++o) {
      if (launch_.grid[o].tile_dim == begin->tile_dim) return o;
    }
    return std::nullopt;
  }

  void dims() {
    for (const GridDim& grid : launch_.grid) {
      const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
      if (dim.variadic) throw Unknown{"a tile dimension's rank is only known at trace time"};
      const bool in_kernel = ir::bounds_in_kernel(kernel_, dim);
      int64_t size = 0;
      if (in_kernel) {
        if (grid.size_binding < 0) {
          throw Unknown{fmt::format("the extent of `{}` is only known in the kernel", dim.name)};
        }
        size = axis_size(grid.size_binding, grid.size_axis);
      } else {
        size = host_int(dim.extent, fmt::format("the extent of `{}`", dim.name));
        if (ir::has_begin(dim))
          size -= host_int(dim.begin, fmt::format("the start of `{}`", dim.name));
      }
      sizes_.push_back(std::max<int64_t>(size, 0));
      in_kernel_.push_back(in_kernel);
      extents_.push_back(sizes_.back());
    }
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      const GridDim& grid = launch_.grid[g];
      const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
      if (dim.block.kind == ir::BlockSource::Kind::kGrid) {
        blocks_.push_back(1);
        steps_.push_back(sizes_[g]);
        continue;
      }
      std::optional<int64_t> requested;
      if (dim.block.kind == ir::BlockSource::Kind::kFixed) {
        requested = host_int(dim.block.size, fmt::format("the block size of `{}`", dim.name));
      } else if (dim.block.tunable >= 0 &&
                 static_cast<size_t>(dim.block.tunable) < choices_.block_sizes.size()) {
        requested = choices_.block_sizes[static_cast<size_t>(dim.block.tunable)];
      }
      const int64_t legal_size = (grid.partial || in_kernel_[g]) && grid.size_binding >= 0
                                     ? axis_size(grid.size_binding, grid.size_axis)
                                     : sizes_[g];
      std::vector<int64_t> axes;
      if (grid.partial) {
        for (const auto& [binding, axis] : differing_axes(values_.facts(), launch_, grid)) {
          axes.push_back(axis_size(binding, axis));
        }
      }
      std::vector<ir::ScalarType> dtypes;
      for (int binding : sublane_bindings(launch_, grid)) dtypes.push_back(dtype(binding));
      const int64_t block = legal_block(requested, legal_size, block_role(grid),
                                        whole_elements(grid), axes, dtypes, dim.window_rows);
      blocks_.push_back(block);
      if (const std::optional<size_t> outer = spanned_outer(dim, g);
          outer && grid.inner_loop >= 0) {
        // `hl.tile(part.begin, part.end)`: each step of the outer dimension runs the loop over
        // its own block only (split-k's slices), not over the whole axis.
        sizes_[g] = std::min(sizes_[g], blocks_[*outer]);
        steps_.push_back(block <= 0 ? 0 : cdiv(sizes_[g], block));
        continue;
      }
      if (ir::bounds_from_tensors(dim) && grid.inner_loop >= 0) {
        // Bounds read from tensors (segments of a jagged array): the trip count is known only
        // at run time. The model assumes the segments split the axis evenly among the steps of
        // the launch's own dimensions (which come first), each starting inside a block.
        int64_t outer = 1;
        for (size_t o = 0; o < g; ++o) {
          if (launch_.grid[o].inner_loop < 0) outer *= std::max<int64_t>(steps_[o], 1);
        }
        sizes_[g] = cdiv(sizes_[g], outer);
        steps_.push_back(block <= 0 ? 0 : cdiv(sizes_[g], block) + (ir::has_begin(dim) ? 1 : 0));
        continue;
      }
      if (moving_range(g, block)) continue;
      if (ir::has_begin(dim) && !in_kernel_[g]) {
        const int64_t extent = host_int(dim.extent, fmt::format("the extent of `{}`", dim.name));
        const int64_t begin = host_int(dim.begin, fmt::format("the start of `{}`", dim.name));
        std::optional<int64_t> steps =
            block <= 0 ? std::optional<int64_t>(0)
                       : checked_sub(cdiv(extent, block), *checked_floor_div(begin, block));
        if (!steps) throw Unknown{"a figure overflows 64 bits"};
        steps_.push_back(*steps);
      } else {
        steps_.push_back(cdiv(sizes_[g], block));
      }
    }
    order_grid();
    for (size_t g : grid_order_) {
      result_.grid_names.push_back(kernel_.tile_dims[launch_.grid[g].tile_dim].name);
      result_.grid.push_back(steps_[g]);
      result_.grid_steps = checked_mul(result_.grid_steps, steps_[g]);
    }
    result_.blocks = blocks_;
    result_.dim_steps = steps_;
    result_.extents = extents_;
  }

  // An inner loop whose range moves with the launch's tile (in-kernel bounds, or steps skipped
  // past the diagonal) covers only the blocks it runs (inner_trips.h): its size becomes the
  // elements it covers per outer step on average, and a streaming loop's trip count the blocks
  // it runs on average (rounded up). A `grid` loop keeps its steps: skipped steps still run, as
  // `pl.when` that does nothing, and their index maps repeat the last block, fetching nothing.
  // Returns false, accounting nothing, when the range is not of that kind or not followed.
  bool moving_range(size_t g, int64_t block) {
    const GridDim& grid = launch_.grid[g];
    const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
    if (grid.inner_loop < 0 || block <= 0) return false;
    const InnerLoop& loop = launch_.inner_loops[static_cast<size_t>(grid.inner_loop)];
    MovingRange range;
    range.size = sizes_[g];
    range.block = block;
    range.begin = ir::has_begin(dim) ? dim.begin : nullptr;
    range.end = dim.extent;
    int outer_dim = -1;
    if (in_kernel_[g]) {
      outer_dim = moving_outer_dim(range);
    } else if (loop.skip && loop.skip->inner_dim == grid.tile_dim && !ir::has_begin(dim)) {
      range.skip_offset = loop.skip->offset;
      outer_dim = loop.skip->outer_dim;
    }
    std::optional<size_t> outer;
    for (size_t o = 0; o < g && outer_dim >= 0; ++o) {
      if (launch_.grid[o].tile_dim == outer_dim && launch_.grid[o].inner_loop < 0) outer = o;
    }
    if (!outer || steps_[*outer] <= 0) return false;
    const std::optional<int64_t> total =
        total_inner_blocks(range, OuterTile{outer_dim, sizes_[*outer], blocks_[*outer]},
                           [this](const ir::ExprPtr& e) { return values_.int_value(e); });
    if (!total) return false;
    const int64_t outer_steps = steps_[*outer];
    const int64_t covered =
        std::min(checked_mul(*total, block), checked_mul(outer_steps, sizes_[g]));
    const int64_t full_steps = cdiv(sizes_[g], block);
    sizes_[g] = cdiv(covered, outer_steps);
    const bool on_grid =
        choices_.strategies[static_cast<size_t>(grid.inner_loop)] == LoopStrategy::kGrid;
    steps_.push_back(on_grid ? full_steps : cdiv(*total, outer_steps));
    return true;
  }

  // The pallas_call's grid axes, outermost first, as launch dimensions: the launch's own in
  // the config's `loop_orders` order (launch.grid lists them first, as written), then the
  // inner loops' `grid` axes.
  void order_grid() {
    const size_t rank = launch_.tile_loop().tile_dims.size();
    std::vector<int64_t> order = choices_.loop_order;
    if (order.empty()) order = default_grid_order(launch_);
    std::vector<int64_t> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (size_t d = 0; d < sorted.size(); ++d) {
      if (sorted.size() != rank || sorted[d] != static_cast<int64_t>(d)) {
        throw Unknown{
            fmt::format("the loop order ({}) is no permutation of the launch's {} "
                        "dimensions",
                        fmt::join(order, ", "), rank)};
      }
    }
    for (int64_t d : order) {
      if (on_grid(static_cast<size_t>(d))) grid_order_.push_back(static_cast<size_t>(d));
    }
    for (size_t g = rank; g < launch_.grid.size(); ++g) {
      if (on_grid(g)) grid_order_.push_back(g);
    }
  }

  // The elements a dimension's operands span along whole dimensions (launch_printer's
  // `whole_elements`): the `other` of `_legal_block`.
  int64_t whole_elements(const GridDim& grid) const {
    int64_t most = 1;
    bool any = false;
    for (const TileUse& use : grid.uses) {
      const Operand& operand =
          use.output ? launch_.outputs[use.operand].operand : launch_.inputs[use.operand].operand;
      int64_t product = 1;
      bool full = false;
      for (const ViewAxis& axis : operand.view) {
        if (axis.kind != ViewAxis::Kind::kFull) continue;
        full = true;
        product = checked_mul(product, axis_size(operand.binding, axis.array_axis));
      }
      if (full) most = any ? std::max(most, product) : product;
      any = any || full;
    }
    return most;
  }

  bool on_grid(size_t g) const { return schedule_.on_grid(g); }

  int64_t buffer_count(int inner) const {
    const auto i = static_cast<size_t>(inner);
    return i < choices_.buffer_counts.size() ? choices_.buffer_counts[i] : kDefaultBufferCount;
  }

  size_t grid_axis(int tile_dim) const {
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (launch_.grid[g].tile_dim == tile_dim) return g;
    }
    throw Unknown{"an operand tiled by a dimension outside its launch"};
  }

  // ---- operands -------------------------------------------------------------------------

  void operand(const Operand& operand, const OperandSchedule& placed, OperandResources::Kind kind) {
    OperandResources r;
    r.kind = kind;
    r.name = name(operand.binding);
    r.dtype = dtype(operand.binding);
    const int64_t itemsize = ir::dtype_bits(r.dtype) / 8;
    if (operand.variadic) throw Unknown{"an operand's rank is only known at trace time"};
    if (placed.memory == MemorySpace::kSmem) {
      // The whole array in SMEM as 32-bit words (`_smem_array`), copied once, tiled as in VMEM.
      const int rank = kernel_.bindings[operand.binding].type.rank;
      int64_t elements = 1;
      for (int a = 0; a < rank; ++a) {
        const int64_t size = axis_size(operand.binding, a);
        elements = checked_mul(elements, size);
        r.block.push_back(size);
      }
      r.memory = memory_space_name(placed.memory);
      r.buffers = 1;
      r.smem_bytes = tiled_vmem_bytes(r.block, 4);
      r.hbm_bytes = checked_mul(elements, itemsize);
      result_.operands.push_back(std::move(r));
      return;
    }
    std::vector<int64_t> block;  // as the kernel sees it
    for (const SizeExpr& extent : known(block_extents(launch_, operand, placed))) {
      block.push_back(evaluate(extent));
    }
    const int64_t vmem_bytes = evaluate(known(operand_vmem(kernel_, launch_, operand, placed)));
    const int64_t buffers = evaluate(known(operand_buffers(kernel_, launch_, placed)));
    int64_t moved = 1;  // elements moved over the grid, before re-fetches
    std::vector<std::string> streamed_over, resident_along;
    for (size_t a = 0; a < operand.view.size(); ++a) {
      const ViewAxis& axis = operand.view[a];
      switch (placed.axes[a]) {
        case AxisPlacement::kBlock: {
          const size_t g = grid_axis(axis.tile_dim);
          if (!on_grid(g)) streamed_over.push_back(kernel_.tile_dims[axis.tile_dim].name);
          moved = checked_mul(moved, sizes_[g]);
          break;
        }
        case AxisPlacement::kResident: {
          // `unroll`: the whole axis stays in VMEM.
          const int64_t size = axis_size(operand.binding, axis.array_axis);
          resident_along.push_back(kernel_.tile_dims[axis.tile_dim].name);
          moved = checked_mul(moved, size);
          break;
        }
        case AxisPlacement::kWhole: {
          int64_t size = axis_size(operand.binding, axis.array_axis);
          if (axis.kind == ViewAxis::Kind::kColumn) size = std::min<int64_t>(size, 128);
          moved = checked_mul(moved, size);
          break;
        }
        case AxisPlacement::kNone:
          break;
      }
    }
    for (int g : placed.selected_dims) moved = checked_mul(moved, steps_[static_cast<size_t>(g)]);
    // Re-fetches: every grid axis (in the grid's order) before the last one the block index
    // depends on (with more than one step) changes the block index when it advances, so the
    // block is fetched again. A streamed operand is copied by the kernel body itself, at every
    // grid step.
    const std::set<int> used(placed.index_dims.begin(), placed.index_dims.end());
    const bool streamed = placed.streamed_by >= 0;
    size_t last = 0;  // axes of grid_order_ up to the last such one
    for (size_t i = 0; i < grid_order_.size(); ++i) {
      const size_t g = grid_order_[i];
      const bool indexes = used.contains(static_cast<int>(g)) && steps_[g] > 1;
      if (indexes || streamed) last = i + 1;
    }
    for (size_t i = 0; i < last; ++i) {
      const size_t g = grid_order_[i];
      if (!used.contains(static_cast<int>(g))) moved = checked_mul(moved, steps_[g]);
    }
    r.hbm_bytes = checked_mul(moved, itemsize);
    r.block = block;
    r.memory = memory_space_name(placed.memory);
    if (streamed) {
      // The BlockSpec leaves the array in HBM; the loop streams blocks into VMEM buffers.
      r.note = fmt::format("streamed over {}", fmt::join(streamed_over, ", "));
      OperandResources stream;
      stream.kind = OperandResources::Kind::kStream;
      stream.name = r.name;
      stream.memory = "VMEM";
      stream.dtype = r.dtype;
      stream.block = block;
      stream.note = fmt::format("buffers for {}", fmt::join(streamed_over, ", "));
      stream.buffers = buffers;
      stream.vmem_bytes = vmem_bytes;
      result_.operands.push_back(std::move(r));
      result_.operands.push_back(std::move(stream));
      return;
    }
    if (!resident_along.empty()) {
      r.note = fmt::format("{} resident", fmt::join(resident_along, ", "));
    }
    r.buffers = buffers;
    r.vmem_bytes = vmem_bytes;
    result_.operands.push_back(std::move(r));
  }

  // The schedule's scratch buffers that hold values: carried values in VMEM (`grid`,
  // `emit_pipeline`) and the pipeline's step number in SMEM. Stream slots are counted with
  // their input; semaphores take no memory; a row gather's rows are sized while JAX traces.
  void scratch() {
    for (const ScratchBuffer& buffer : schedule_.scratch) {
      const auto loop = static_cast<size_t>(buffer.inner_loop);
      if (buffer.kind == ScratchBuffer::Kind::kPipelineStep) {
        OperandResources r;
        r.kind = OperandResources::Kind::kScratch;
        r.name = kernel_.tile_dims[launch_.inner_loops[loop].tile_loop().tile_dims.front()].name;
        r.memory = "SMEM";
        r.note = "emit_pipeline step";
        r.dtype = ir::ScalarType::kInt32;
        r.block = {1};
        r.buffers = 1;
        r.smem_bytes = 4;
        result_.operands.push_back(std::move(r));
        continue;
      }
      if (!buffer.holds_carry()) {
        continue;
      }
      const ir::TileLoop::Carry& carry =
          launch_.inner_loops[loop].tile_loop().carried[static_cast<size_t>(buffer.carry)];
      const ir::Binding& binding = kernel_.bindings[carry.init];
      if (!binding.type.dtype) {
        throw Unknown{fmt::format("the dtype of the carried value `{}` is only known at trace time",
                                  binding.name)};
      }
      OperandResources r;
      r.kind = OperandResources::Kind::kScratch;
      r.name = binding.name;
      r.memory = "VMEM";
      r.note = fmt::format("carried by {}", loop_strategy_name(schedule_.strategies[loop]));
      r.dtype = *binding.type.dtype;
      r.buffers = 1;
      for (const ir::Dim& dim : binding.type.dims) {
        int64_t extent = 1;
        if (dim.kind == ir::Dim::Kind::kTile) {
          extent = blocks_[grid_axis(dim.tile_dim)];
        } else if (dim.kind == ir::Dim::Kind::kTilePart) {
          extent = blocks_[grid_axis(dim.tile_dim)] / dim.extent;
        } else if (dim.within_axis()) {  // a slice: at most the axis
          extent = axis_size(dim.binding, dim.axis);
        } else if (dim.kind == ir::Dim::Kind::kLiteral) {
          extent = dim.extent;
        } else if (dim.kind == ir::Dim::Kind::kComputed) {
          extent = computed_size(dim.size);
        }
        r.block.push_back(extent);
      }
      if (buffer.lane_rows) {
        r.block.push_back(kLaneRowLanes);
        r.note += ", lane rows";
      }
      r.vmem_bytes = evaluate(known(scratch_vmem(kernel_, launch_, buffer)));
      result_.operands.push_back(std::move(r));
    }
  }

  // ---- work -----------------------------------------------------------------------------

  int64_t cost(const std::vector<CostTerm>& terms) const {
    int64_t total = 0;
    for (const CostTerm& term : terms) {
      if (__builtin_add_overflow(total, term_cost(term), &total)) {
        throw Unknown{"flops overflow 64 bits"};
      }
    }
    return total;
  }

  // The MXU terms, with the block shape of one product.
  void products() {
    for (const CostTerm& term : launch_.cost.products) {
      const ProductShape& shape = *term.product;
      ProductResources p;
      p.flops = term_cost(term);
      p.rows = step_extent(shape.rows);
      p.cols = step_extent(shape.cols);
      p.depth = step_extent(shape.contracted);
      if (shape.dtype) {
        p.dtype = *shape.dtype;
      } else if (shape.dtype_binding >= 0) {
        p.dtype = dtype(shape.dtype_binding);
      }
      result_.mxu_flops += p.flops;
      result_.products.push_back(p);
    }
  }

  // A dimension's extent in one step of the kernel body: a tile's block, a whole axis.
  int64_t step_extent(const ir::Dim& dim) const {
    switch (dim.kind) {
      case ir::Dim::Kind::kTile:
        return blocks_[grid_axis(dim.tile_dim)];
      case ir::Dim::Kind::kTilePart:
        return blocks_[grid_axis(dim.tile_dim)] / dim.extent;
      case ir::Dim::Kind::kFull:
      case ir::Dim::Kind::kSlice:  // at most the axis: the accounting is an upper bound
        return axis_size(dim.binding, dim.axis);
      case ir::Dim::Kind::kVariadic:
        throw Unknown{"a value's rank is only known at trace time"};
      case ir::Dim::Kind::kLiteral:
        return dim.extent;
      case ir::Dim::Kind::kComputed:
        return computed_size(dim.size);
      case ir::Dim::Kind::kUnit:
        break;
    }
    return 1;
  }

  // A computed size's value for this call (Kernel::computed_sizes[index]: host ints).
  int64_t computed_size(int index) const {
    const ir::Kernel::ComputedSize& size = kernel_.computed_sizes[static_cast<size_t>(index)];
    return host_int(size.value, fmt::format("the size `{}`", size.text));
  }

  // One term: its tiled dimensions at their whole extent, repeated over the launch's own grid
  // axes it is not tiled by and over the steps of the inner loops it runs in.
  int64_t term_cost(const CostTerm& term) const {
    int64_t value = term.count;
    std::vector<bool> covered(launch_.grid.size(), false);
    for (const ir::Dim& dim : term.elements) {
      switch (dim.kind) {
        case ir::Dim::Kind::kTile: {
          const size_t g = grid_axis(dim.tile_dim);
          covered[g] = true;
          value = checked_mul(value, sizes_[g]);
          break;
        }
        case ir::Dim::Kind::kFull:
        case ir::Dim::Kind::kSlice:  // at most the axis
          value = checked_mul(value, axis_size(dim.binding, dim.axis));
          break;
        case ir::Dim::Kind::kLiteral:
          value = checked_mul(value, dim.extent);
          break;
        case ir::Dim::Kind::kComputed:
          value = checked_mul(value, computed_size(dim.size));
          break;
        case ir::Dim::Kind::kTilePart: {  // the groups of the tile's extent
          const size_t g = grid_axis(dim.tile_dim);
          covered[g] = true;
          value = checked_mul(value, (sizes_[g] + dim.extent - 1) / dim.extent);
          break;
        }
        case ir::Dim::Kind::kVariadic:
          throw Unknown{"a value's rank is only known at trace time"};
        case ir::Dim::Kind::kUnit:
          break;
      }
    }
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (!covered[g] && launch_.grid[g].inner_loop < 0) value = checked_mul(value, steps_[g]);
    }
    // Work inside inner loops runs at each of their steps (a row's statistics per key block).
    for (int loop = term.inner_loop; loop >= 0;
         loop = launch_.inner_loops[static_cast<size_t>(loop)].parent) {
      for (size_t g = 0; g < launch_.grid.size(); ++g) {
        if (!covered[g] && launch_.grid[g].inner_loop == loop) {
          value = checked_mul(value, steps_[g]);
        }
      }
    }
    return value;
  }

  const ir::Kernel& kernel_;
  const Launch& launch_;
  const LaunchSchedule& schedule_;
  const HostValues& values_;
  const LaunchChoices& choices_;
  std::vector<int64_t> sizes_;    // per launch dimension: the elements it covers
  std::vector<int64_t> extents_;  // per launch dimension: its range, as the module's grid sees it
  std::vector<int64_t> blocks_;
  std::vector<int64_t> steps_;
  std::vector<size_t> grid_order_;  // launch dimensions on the grid, outermost first
  std::vector<bool> in_kernel_;
  mutable std::map<std::pair<int, int>, int64_t> axis_sizes_;
  LaunchResources result_;
};

}  // namespace

Expected<LaunchResources> account_launch(const ir::Kernel& kernel, const Launch& launch,
                                         const LaunchSchedule& schedule, const HostValues& values,
                                         const LaunchChoices& choices) {
  try {
    return Accountant(kernel, launch, schedule, values, choices).run();
  } catch (const Unknown& unknown) {
    return Error{unknown.what};
  }
}

Expected<LaunchResources> account_launch(const ir::Kernel& kernel, const Launch& launch,
                                         const HostValues& values, const LaunchChoices& choices) {
  if (choices.strategies.size() != launch.inner_loops.size()) {
    return Error{"the config gives no strategy for every inner loop"};
  }
  // The search accounts thousands of points: the stored schedule is read in place, not copied.
  if (const LaunchSchedule* stored = stored_schedule(launch, choices.strategies)) {
    return account_launch(kernel, launch, *stored, values, choices);
  }
  return account_launch(kernel, launch, schedule_launch(kernel, launch, choices.strategies), values,
                        choices);
}

}  // namespace helionc::passes
