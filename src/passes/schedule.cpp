#include "passes/schedule.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "ir/printer.h"
#include "ir/visitor.h"
#include "passes/launch_plan.h"
#include "passes/plan_hoists.h"
#include "passes/plan_lane_rows.h"
#include "passes/plan_padding.h"
#include "passes/plan_strategies.h"
#include "support/internal_check.h"

namespace helionc::passes {

std::string_view dim_run_name(DimRun run) {
  switch (run) {
    case DimRun::kGridAxis:
      return "grid";
    case DimRun::kResident:
      return "resident";
    case DimRun::kStreamed:
      return "streamed";
  }
  return "?";
}

std::string_view memory_space_name(MemorySpace memory) {
  switch (memory) {
    case MemorySpace::kVmem:
      return "VMEM";
    case MemorySpace::kSmem:
      return "SMEM";
    case MemorySpace::kHbm:
      return "ANY";
  }
  return "?";
}

std::string_view scratch_kind_name(ScratchBuffer::Kind kind) {
  switch (kind) {
    case ScratchBuffer::Kind::kGridCarry:
      return "grid carry";
    case ScratchBuffer::Kind::kPipelineCarry:
      return "pipeline carry";
    case ScratchBuffer::Kind::kPipelineStep:
      return "pipeline step";
    case ScratchBuffer::Kind::kStreamSlots:
      return "stream slots";
    case ScratchBuffer::Kind::kStreamSemaphores:
      return "stream semaphores";
    case ScratchBuffer::Kind::kGatherRows:
      return "gather rows";
    case ScratchBuffer::Kind::kGatherSemaphore:
      return "gather semaphore";
  }
  return "?";
}

namespace {

bool streams(LoopStrategy strategy) {
  return strategy == LoopStrategy::kEmitPipeline || strategy == LoopStrategy::kForiLoop;
}

class Scheduler {
 public:
  Scheduler(const ir::Kernel& kernel, const Launch& launch,
            const std::vector<LoopStrategy>& strategies)
      : kernel_(kernel), launch_(launch) {
    HELIONC_CHECK(strategies.size() == launch.inner_loops.size(),
                  "a schedule needs one strategy per inner loop");
    schedule_.strategies = strategies;
  }

  LaunchSchedule run() {
    dims();
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      schedule_.inputs.push_back(input(static_cast<int>(i)));
    }
    pad_reread_product_operands();
    for (const Output& output : launch_.outputs) {
      OperandSchedule operand = placed(output.operand, /*streamed=*/false);
      if (output.aliased_input >= 0) {
        operand.why =
            fmt::format("aliased to input {} ({})", output.aliased_input, output.alias_reason);
      }
      schedule_.outputs.push_back(std::move(operand));
    }
    scratch();
    schedule_.definition_masks = plan_definition_masks(kernel_, launch_, schedule_);
    schedule_.lane_rows = plan_lane_rows(kernel_, launch_, schedule_);
    schedule_.hoisted = hoisted_values(launch_, schedule_.strategies);
    for (ScratchBuffer& buffer : schedule_.scratch) {
      if (!buffer.holds_carry()) {
        continue;
      }
      const ir::TileLoop& loop =
          launch_.inner_loops[static_cast<size_t>(buffer.inner_loop)].tile_loop();
      buffer.lane_rows =
          schedule_.lane_rows.contains(loop.carried[static_cast<size_t>(buffer.carry)].phi);
    }
    return std::move(schedule_);
  }

 private:
  void dims() {
    int axis = 0;
    const std::vector<int> revisited = revisited_dims(launch_);
    for (const GridDim& grid : launch_.grid) {
      const int g = static_cast<int>(schedule_.dims.size());
      DimSchedule dim;
      if (grid.inner_loop >= 0) {
        dim.strategy = schedule_.strategies[static_cast<size_t>(grid.inner_loop)];
        if (*dim.strategy == LoopStrategy::kUnroll) dim.run = DimRun::kResident;
        if (streams(*dim.strategy)) dim.run = DimRun::kStreamed;
        if (*dim.strategy == LoopStrategy::kGrid) schedule_.grid_loop = grid.inner_loop;
      }
      if (dim.run == DimRun::kGridAxis) {
        dim.pallas_axis = axis++;
        // An inner loop on the grid carries values from step to step, steps that revisit an
        // output's block update it one after the other, and outer steps that share output
        // blocks (Output::masked_in_place) must not run at once: those axes run in order.
        dim.arbitrary = dim.strategy.has_value() || shares_output_blocks() ||
                        std::find(revisited.begin(), revisited.end(), g) != revisited.end();
        schedule_.pallas_grid.push_back(static_cast<int>(schedule_.dims.size()));
      }
      const ir::TileDim& tile = kernel_.tile_dims[grid.tile_dim];
      if (tile.block.kind == ir::BlockSource::Kind::kGrid) {
        dim.partial = PartialBlocks::kNever;
      } else if (tile.variadic || ir::bounds_in_kernel(kernel_, tile)) {
        dim.partial = PartialBlocks::kRunTime;
      }
      schedule_.dims.push_back(dim);
    }
  }

  bool shares_output_blocks() const {
    return std::any_of(launch_.outputs.begin(), launch_.outputs.end(),
                       [](const Output& output) { return output.masked_in_place; });
  }

  int launch_dim(int tile_dim) const {
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (launch_.grid[g].tile_dim == tile_dim) return static_cast<int>(g);
    }
    HELIONC_UNREACHABLE("an operand tiled by a dimension outside its launch");
  }

  // The launch dimensions of the `hl.grid` loop variables an index expression reads.
  void grid_vars(const ir::ExprPtr& scalar, std::set<int>& dims) const {
    if (!scalar) return;
    const ir::TileLoop& loop = launch_.tile_loop();
    ir::for_each_expr(ir::Block{ir::Return::make({scalar}, scalar->range)}, [&](const ir::Expr& e) {
      if (const auto* attr = e.as<ir::TileAttr>()) {  // `tile_b.begin` of the launch's own tile
        for (int dim : loop.tile_dims) {
          if (dim == attr->tile_dim) dims.insert(launch_dim(dim));
        }
        return;
      }
      const auto* ref = e.as<ir::VarRef>();
      if (ref == nullptr) return;
      for (size_t i = 0; i < loop.loop_vars.size() && i < loop.tile_dims.size(); ++i) {
        if (loop.loop_vars[i] == ref->binding) dims.insert(launch_dim(loop.tile_dims[i]));
      }
    });
  }

  // The inner loop that streams input `input` under the schedule's strategies, or -1.
  int streamed_by(int input) const {
    for (size_t i = 0; i < launch_.inner_loops.size(); ++i) {
      if (!streams(schedule_.strategies[i])) continue;
      const std::vector<int>& inputs = launch_.inner_loops[i].streamed_inputs;
      if (std::find(inputs.begin(), inputs.end(), input) != inputs.end()) {
        return static_cast<int>(i);
      }
    }
    return -1;
  }

  std::string dim_name(int tile_dim) const { return kernel_.tile_dims[tile_dim].name; }

  // The input a value loads (through casts), when it is one the inner loop `loop` tiles along
  // axis `axis` of the value; else -1.
  int tiled_input(const ir::Expr& value, int axis, const InnerLoop& loop) const {
    const ir::Expr* e = &value;
    while (const auto* call = e->as<ir::Call>()) {
      if (call->op != ir::Intrinsic::kCast) return -1;
      e = call->args[0].get();
    }
    const auto* load = e->as<ir::Load>();
    if (load == nullptr || axis < 0 || static_cast<size_t>(axis) >= value.type.dims.size()) {
      return -1;
    }
    const ir::Dim& dim = value.type.dims[static_cast<size_t>(axis)];
    if (dim.kind != ir::Dim::Kind::kTile || dim.tile_dim != loop.tile_loop().tile_dims.front()) {
      return -1;
    }
    auto use = launch_.loads.find(load);
    if (use == launch_.loads.end() || use->second.output) return -1;
    const std::vector<int>& tiled = loop.streamed_inputs;
    return std::find(tiled.begin(), tiled.end(), use->second.index) != tiled.end()
               ? use->second.index
               : -1;
  }

  // Under `grid` and `unroll` the blocks of an inner loop's inputs come through BlockSpecs, whose
  // padding past the array's end is undefined, so a product along the loop masks both operands
  // when a block can be partial. When both operands are inputs the launch reads more than once
  // (some grid axis of its own does not index them: matmul's x is read again for every block
  // of n), they are zero-padded to whole blocks on the host instead: one extra pass over the
  // array, amortised over the re-reads, and no mask work in any step. An input read once (a
  // memory-bound kernel) keeps its masks: there the pad would cost more than the selects.
  void pad_reread_product_operands() {
    std::set<int> candidates;
    for (size_t i = 0; i < launch_.inner_loops.size(); ++i) {
      const LoopStrategy strategy = schedule_.strategies[i];
      if (strategy != LoopStrategy::kGrid && strategy != LoopStrategy::kUnroll) continue;
      const InnerLoop& loop = launch_.inner_loops[i];
      const ir::TileDim& dim = kernel_.tile_dims[loop.tile_loop().tile_dims.front()];
      if (loop.tile_loop().tile_dims.size() != 1 || ir::has_begin(dim)) continue;
      ir::for_each_expr(loop.tile_loop().body, [&](const ir::Expr& e) {
        const auto* call = e.as<ir::Call>();
        if (call == nullptr || call->op != ir::Intrinsic::kDot) return;
        const int a = tiled_input(*call->args[0], ir::int_literal(*call->args[1], -1), loop);
        const int b = tiled_input(*call->args[2], ir::int_literal(*call->args[3], -1), loop);
        if (a < 0 || b < 0) return;
        candidates.insert(a);
        candidates.insert(b);
      });
    }
    for (int input : candidates) {
      OperandSchedule& operand = schedule_.inputs[static_cast<size_t>(input)];
      if (operand.memory != MemorySpace::kVmem || operand.streamed_by >= 0) continue;
      std::string reread_over;
      for (size_t g = 0; g < launch_.grid.size(); ++g) {
        const bool indexes = std::find(operand.index_dims.begin(), operand.index_dims.end(),
                                       static_cast<int>(g)) != operand.index_dims.end();
        if (launch_.grid[g].inner_loop < 0 && !indexes) {
          reread_over = dim_name(launch_.grid[g].tile_dim);
          break;
        }
      }
      if (reread_over.empty()) continue;
      operand.zero_padded = true;
      operand.why = fmt::format(
          "zero-padded to whole blocks on the host (read again for every block of {}): its "
          "products need no mask",
          reread_over);
    }
  }

  OperandSchedule input(int i) {
    const Input& input = launch_.inputs[static_cast<size_t>(i)];
    if (input.kind == Input::Kind::kAliasedUnread) {
      OperandSchedule operand;
      operand.memory = MemorySpace::kHbm;
      operand.vmem_buffers = 0;
      operand.why = fmt::format("the old contents of output {}, kept in place", input.output);
      return operand;
    }
    const int loop = streamed_by(i);
    OperandSchedule operand = placed(input.operand, loop >= 0);
    if (loop >= 0) {
      const InnerLoop& inner = launch_.inner_loops[static_cast<size_t>(loop)];
      operand.memory = MemorySpace::kHbm;
      operand.vmem_buffers = 0;
      operand.streamed_by = loop;
      operand.zero_padded = true;
      operand.why = fmt::format("streamed by {} over {}, zero-padded to whole blocks",
                                loop_strategy_name(schedule_.strategies[static_cast<size_t>(loop)]),
                                dim_name(inner.tile_loop().tile_dims.front()));
    }
    if (input.kind == Input::Kind::kAliasedRead) {
      operand.why = fmt::format("the old contents of output {}, read", input.output);
    }
    return operand;
  }

  // Memory and axis placement of an operand read or written through its BlockSpec.
  OperandSchedule placed(const Operand& view, bool streamed) {
    OperandSchedule operand;
    if (view.smem) {
      operand.memory = MemorySpace::kSmem;
      operand.vmem_buffers = 0;
      operand.why = "read only as scalars: the whole array";
      return operand;
    }
    if (view.variadic) {
      operand.why = "any-rank tiles";
      return operand;
    }
    std::set<int> index_dims, selected;
    std::vector<std::string> resident;
    for (const ViewAxis& axis : view.view) {
      switch (axis.kind) {
        case ViewAxis::Kind::kTile: {
          const int g = launch_dim(axis.tile_dim);
          const DimSchedule& dim = schedule_.dims[static_cast<size_t>(g)];
          if (dim.run == DimRun::kGridAxis) {
            operand.axes.push_back(AxisPlacement::kBlock);
            index_dims.insert(g);
          } else if (dim.run == DimRun::kStreamed && streamed) {
            operand.axes.push_back(AxisPlacement::kBlock);
          } else {
            // The body reads windows of the whole axis, kept in VMEM and padded to whole blocks
            // so that the last window stays inside.
            operand.axes.push_back(AxisPlacement::kResident);
            resident.push_back(dim_name(axis.tile_dim));
          }
          break;
        }
        case ViewAxis::Kind::kFull:
          operand.axes.push_back(AxisPlacement::kWhole);
          break;
        case ViewAxis::Kind::kColumn:
          operand.axes.push_back(AxisPlacement::kWhole);
          grid_vars(axis.scalar, index_dims);
          break;
        case ViewAxis::Kind::kScalar:
          operand.axes.push_back(AxisPlacement::kNone);
          grid_vars(axis.scalar, index_dims);
          grid_vars(axis.scalar, selected);
          break;
        case ViewAxis::Kind::kUnit:
          operand.axes.push_back(AxisPlacement::kNone);
          break;
      }
      if (axis.dma_ids >= 0) operand.hbm_when_gathered_by_dma = true;
    }
    operand.index_dims.assign(index_dims.begin(), index_dims.end());
    operand.selected_dims.assign(selected.begin(), selected.end());
    if (!resident.empty()) operand.why = fmt::format("{} resident", fmt::join(resident, ", "));
    if (operand.hbm_when_gathered_by_dma) operand.why = "rows gathered by DMA or in VMEM";
    return operand;
  }

  // The kernel's scratch parameters: the `grid` loop's carries; per inner loop in order, an
  // `emit_pipeline` loop's carries and step number, or a `fori_loop` loop's slots per streamed
  // input and its semaphores; per row gather that may copy by DMA, its rows and semaphore.
  void scratch() {
    std::vector<ScratchBuffer>& out = schedule_.scratch;
    if (schedule_.grid_loop >= 0) {
      const InnerLoop& loop = launch_.inner_loops[static_cast<size_t>(schedule_.grid_loop)];
      for (size_t c = 0; c < loop.tile_loop().carried.size(); ++c) {
        out.push_back({ScratchBuffer::Kind::kGridCarry, schedule_.grid_loop, static_cast<int>(c)});
      }
    }
    for (size_t i = 0; i < launch_.inner_loops.size(); ++i) {
      const InnerLoop& loop = launch_.inner_loops[i];
      const int index = static_cast<int>(i);
      if (schedule_.strategies[i] == LoopStrategy::kEmitPipeline) {
        for (size_t c = 0; c < loop.tile_loop().carried.size(); ++c) {
          out.push_back({ScratchBuffer::Kind::kPipelineCarry, index, static_cast<int>(c)});
        }
        out.push_back({ScratchBuffer::Kind::kPipelineStep, index});
      } else if (schedule_.strategies[i] == LoopStrategy::kForiLoop) {
        for (int input : loop.streamed_inputs) {
          out.push_back({ScratchBuffer::Kind::kStreamSlots, index, -1, input});
        }
        out.push_back({ScratchBuffer::Kind::kStreamSemaphores, index});
      }
    }
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      if (!schedule_.inputs[i].hbm_when_gathered_by_dma) continue;
      const int input = static_cast<int>(i);
      out.push_back({ScratchBuffer::Kind::kGatherRows, -1, -1, input});
      out.push_back({ScratchBuffer::Kind::kGatherSemaphore, -1, -1, input});
    }
  }

  const ir::Kernel& kernel_;
  const Launch& launch_;
  LaunchSchedule schedule_;
};

}  // namespace

bool LaunchSchedule::hoisted_from(size_t inner, const ir::Stmt* stmt) const {
  if (inner >= hoisted.size()) return false;
  const std::vector<HoistedValue>& values = hoisted[inner];
  return std::any_of(values.begin(), values.end(),
                     [&](const HoistedValue& value) { return value.let == stmt; });
}

LaunchSchedule schedule_launch(const ir::Kernel& kernel, const Launch& launch,
                               const std::vector<LoopStrategy>& strategies) {
  return Scheduler(kernel, launch, strategies).run();
}

std::vector<std::vector<LoopStrategy>> strategy_combinations(const Launch& launch, size_t limit) {
  std::vector<LoopStrategy> defaults;
  for (const InnerLoop& loop : launch.inner_loops) defaults.push_back(default_strategy(loop));
  std::vector<std::vector<LoopStrategy>> all = {defaults};
  // Odometer over the applicable strategies of each loop, last loop fastest.
  std::vector<std::vector<LoopStrategy>> choices;
  for (const InnerLoop& loop : launch.inner_loops) {
    std::vector<LoopStrategy> applicable;
    for (int s = 0; s < kLoopStrategyCount; ++s) {
      const auto strategy = static_cast<LoopStrategy>(s);
      if (loop.reason_against(strategy).empty()) applicable.push_back(strategy);
    }
    choices.push_back(std::move(applicable));
  }
  std::vector<size_t> at(choices.size(), 0);
  while (all.size() < limit) {
    std::vector<LoopStrategy> combination;
    for (size_t i = 0; i < choices.size(); ++i) combination.push_back(choices[i][at[i]]);
    if (combination != defaults) all.push_back(std::move(combination));
    size_t i = choices.size();
    while (i > 0 && ++at[i - 1] == choices[i - 1].size()) at[--i] = 0;
    if (i == 0) break;
  }
  return all;
}

void schedule_kernel(const ir::Kernel& kernel, KernelPlan& plan) {
  for (Launch& launch : plan.launches) {
    launch.schedules.clear();
    for (const std::vector<LoopStrategy>& strategies : strategy_combinations(launch)) {
      launch.schedules.push_back(schedule_launch(kernel, launch, strategies));
    }
  }
}

const LaunchSchedule* stored_schedule(const Launch& launch,
                                      const std::vector<LoopStrategy>& strategies) {
  for (const LaunchSchedule& schedule : launch.schedules) {
    if (schedule.strategies == strategies) return &schedule;
  }
  return nullptr;
}

LaunchSchedule find_schedule(const ir::Kernel& kernel, const Launch& launch,
                             const std::vector<LoopStrategy>& strategies) {
  const LaunchSchedule* stored = stored_schedule(launch, strategies);
  return stored != nullptr ? *stored : schedule_launch(kernel, launch, strategies);
}

namespace {

class SchedulePrinter {
 public:
  SchedulePrinter(const ir::Kernel& kernel, const Launch& launch, const LaunchSchedule& schedule)
      : kernel_(kernel), launch_(launch), schedule_(schedule) {}

  std::string print() {
    std::vector<std::string> strategies;
    for (LoopStrategy s : schedule_.strategies) strategies.emplace_back(loop_strategy_name(s));
    out_ += fmt::format("  schedule [{}]\n", fmt::join(strategies, ", "));
    for (size_t g = 0; g < schedule_.dims.size(); ++g) {
      const DimSchedule& dim = schedule_.dims[g];
      std::string text = fmt::format("    dim {} {}", tile_name(g), dim_run_name(dim.run));
      if (dim.run == DimRun::kGridAxis) {
        text +=
            fmt::format(" axis {} {}", dim.pallas_axis, dim.arbitrary ? "arbitrary" : "parallel");
      }
      static constexpr const char* kPartial[] = {"never partial", "partial: trace time",
                                                 "partial: run time"};
      out_ += fmt::format("{}, {}\n", text, kPartial[static_cast<int>(dim.partial)]);
    }
    for (size_t i = 0; i < schedule_.inputs.size(); ++i) {
      operand("input", i, launch_.inputs[i].operand, schedule_.inputs[i]);
    }
    for (size_t o = 0; o < schedule_.outputs.size(); ++o) {
      operand("output", o, launch_.outputs[o].operand, schedule_.outputs[o]);
    }
    for (const ScratchBuffer& buffer : schedule_.scratch) {
      std::string text = fmt::format("    scratch {}", scratch_kind_name(buffer.kind));
      if (buffer.inner_loop >= 0) text += fmt::format(" loop {}", buffer.inner_loop);
      if (buffer.carry >= 0) {
        const auto& loop = launch_.inner_loops[static_cast<size_t>(buffer.inner_loop)].tile_loop();
        text += fmt::format(" `{}`", kernel_.bindings[loop.carried[buffer.carry].init].name);
      }
      if (buffer.input >= 0) text += fmt::format(" input {}", buffer.input);
      if (buffer.lane_rows) text += " (lane rows)";
      out_ += text + "\n";
    }
    for (const DefinitionMask& mask : schedule_.definition_masks) {
      out_ += fmt::format("    mask `{}` along {} with {} where it is defined\n",
                          kernel_.bindings[mask.binding].name,
                          kernel_.tile_dims[mask.tile_dim].name, pad_name(mask.fill));
    }
    std::vector<std::string> rows;
    for (int binding : schedule_.lane_rows) {
      const std::string name = fmt::format("`{}`", kernel_.bindings[binding].name);
      if (std::find(rows.begin(), rows.end(), name) == rows.end()) rows.push_back(name);
    }
    if (!rows.empty()) out_ += fmt::format("    lane rows {}\n", fmt::join(rows, ", "));
    for (size_t loop = 0; loop < schedule_.hoisted.size(); ++loop) {
      std::vector<std::string> names;
      for (const HoistedValue& value : schedule_.hoisted[loop]) {
        if (value.let == nullptr) {
          names.push_back(fmt::format("`{}`", ir::print_expr(kernel_, value.expr)));
          continue;
        }
        for (int target : value.let->targets) {
          names.push_back(fmt::format("`{}`", kernel_.bindings[target].name));
        }
      }
      if (!names.empty()) {
        out_ += fmt::format("    before loop {}: {}\n", loop, fmt::join(names, ", "));
      }
    }
    return std::move(out_);
  }

 private:
  std::string tile_name(size_t g) const { return kernel_.tile_dims[launch_.grid[g].tile_dim].name; }

  void operand(std::string_view kind, size_t index, const Operand& view,
               const OperandSchedule& operand) {
    static constexpr const char* kPlacement[] = {"block", "resident", "whole", "-"};
    std::vector<std::string> axes;
    for (AxisPlacement axis : operand.axes) axes.emplace_back(kPlacement[static_cast<int>(axis)]);
    std::vector<std::string> index_dims;
    for (int g : operand.index_dims) index_dims.push_back(tile_name(static_cast<size_t>(g)));
    std::string text =
        fmt::format("    {} {} {} {}", kind, index, kernel_.bindings[view.binding].name,
                    memory_space_name(operand.memory));
    if (operand.vmem_buffers > 0) text += fmt::format(" x{}", operand.vmem_buffers);
    if (!axes.empty()) text += fmt::format(" ({})", fmt::join(axes, ", "));
    if (!index_dims.empty()) text += fmt::format(" index by {}", fmt::join(index_dims, ", "));
    if (!operand.why.empty()) text += ": " + operand.why;
    out_ += text + "\n";
  }

  const ir::Kernel& kernel_;
  const Launch& launch_;
  const LaunchSchedule& schedule_;
  std::string out_;
};

}  // namespace

std::string print_schedule(const ir::Kernel& kernel, const Launch& launch,
                           const LaunchSchedule& schedule) {
  return SchedulePrinter(kernel, launch, schedule).print();
}

}  // namespace helionc::passes
