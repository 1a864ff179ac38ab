#include "passes/launch_plan.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "ir/printer.h"

namespace helionc::passes {

std::string_view axis_role_name(AxisRole role) {
  switch (role) {
    case AxisRole::kLeading:
      return "leading";
    case AxisRole::kSublane:
      return "sublane";
    case AxisRole::kLane:
      return "lane";
  }
  return "?";
}

namespace {
constexpr std::string_view kStrategyNames[kLoopStrategyCount] = {"unroll", "emit_pipeline",
                                                                 "fori_loop", "grid"};
}  // namespace

std::string_view loop_strategy_name(LoopStrategy strategy) {
  return kStrategyNames[static_cast<size_t>(strategy)];
}

std::optional<LoopStrategy> parse_loop_strategy(std::string_view name) {
  for (int s = 0; s < kLoopStrategyCount; ++s) {
    if (kStrategyNames[s] == name) return static_cast<LoopStrategy>(s);
  }
  return std::nullopt;
}

int Operand::kernel_rank() const {
  int rank = 0;
  for (const ViewAxis& axis : view) rank += axis.squeezed ? 0 : 1;
  return rank;
}

namespace {

class PlanPrinter {
 public:
  PlanPrinter(const ir::Kernel& kernel, const KernelPlan& plan) : kernel_(kernel), plan_(plan) {}

  std::string print() {
    out_ += fmt::format("plan {}\n", kernel_.name);
    for (const Launch& launch : plan_.launches) print_launch(launch);
    return std::move(out_);
  }

 private:
  std::string tile_name(int dim) const { return kernel_.tile_dims[dim].name; }

  std::string dims(const std::vector<ir::Dim>& dims) const {
    std::vector<std::string> parts;
    for (const ir::Dim& dim : dims) {
      switch (dim.kind) {
        case ir::Dim::Kind::kTile:
          parts.push_back(tile_name(dim.tile_dim));
          break;
        case ir::Dim::Kind::kFull:
          parts.push_back(
              fmt::format("{}.shape[{}]", kernel_.bindings[dim.binding].name, dim.axis));
          break;
        case ir::Dim::Kind::kSlice:
          parts.push_back(fmt::format("{}.shape[{}][{}]", kernel_.bindings[dim.binding].name,
                                      dim.axis,
                                      ir::print_slice_bounds(kernel_, kernel_.slices[dim.slice])));
          break;
        case ir::Dim::Kind::kUnit:
          parts.emplace_back("1");
          break;
        case ir::Dim::Kind::kVariadic:
          parts.push_back(tile_name(dim.tile_dim) + "...");
          break;
        case ir::Dim::Kind::kLiteral:
          parts.push_back(std::to_string(dim.extent));
          break;
        case ir::Dim::Kind::kComputed:
          parts.push_back(kernel_.computed_sizes[static_cast<size_t>(dim.size)].text);
          break;
        case ir::Dim::Kind::kTilePart:
          parts.push_back(fmt::format("{} // {}", tile_name(dim.tile_dim), dim.extent));
          break;
      }
    }
    return fmt::format("[{}]", fmt::join(parts, ", "));
  }

  std::string operand(const Operand& op) const {
    std::string text = kernel_.bindings[op.binding].name;
    if (op.variadic) return text + " view any-rank";
    if (op.smem) return text + " smem whole";
    std::vector<std::string> axes;
    for (const ViewAxis& axis : op.view) {
      std::string a;
      switch (axis.kind) {
        case ViewAxis::Kind::kTile:
          a = tile_name(axis.tile_dim);
          break;
        case ViewAxis::Kind::kFull:
          a = fmt::format(":{}", axis.array_axis);
          if (axis.gather) a += fmt::format(" gather {}", ir::print_expr(kernel_, axis.gather));
          if (axis.dma_ids >= 0) a += fmt::format(" or dma with input {}", axis.dma_ids);
          if (axis.picked) a += " picked";
          break;
        case ViewAxis::Kind::kScalar:
          a = fmt::format("{}@{}", ir::print_expr(kernel_, axis.scalar), axis.array_axis);
          break;
        case ViewAxis::Kind::kUnit:
          a = "1";
          break;
        case ViewAxis::Kind::kColumn:
          a = fmt::format("column {}@{}", ir::print_expr(kernel_, axis.scalar), axis.array_axis);
          break;
      }
      if (axis.squeezed) a += " squeezed";
      a += fmt::format(" {}", axis_role_name(axis.role));
      axes.push_back(std::move(a));
    }
    return fmt::format("{} view [{}]{}", text, fmt::join(axes, ", "),
                       op.reshaped ? " reshaped" : "");
  }

  std::string terms(const std::vector<CostTerm>& terms) const {
    if (terms.empty()) return "0";
    std::vector<std::string> parts;
    parts.reserve(terms.size());
    for (const CostTerm& term : terms) {
      parts.push_back(fmt::format("{} x {}", term.count, dims(term.elements)));
      if (term.inner_loop >= 0)
        parts.back() += fmt::format(" per step of loop {}", term.inner_loop);
    }
    return fmt::format("{}", fmt::join(parts, " + "));
  }

  void print_launch(const Launch& launch) {
    std::vector<std::string> grid;
    for (const GridDim& dim : launch.grid) {
      grid.push_back(
          fmt::format("{} {}{}{}{}", tile_name(dim.tile_dim), axis_role_name(dim.role),
                      dim.flat ? " flat" : "", dim.partial ? " partial" : "",
                      dim.inner_loop >= 0 ? fmt::format(" inner {}", dim.inner_loop) : ""));
    }
    out_ += fmt::format("  launch {}{}: grid [{}]\n", launch.index,
                        launch.variadic ? " any-rank" : "", fmt::join(grid, ", "));
    for (size_t l = 0; l < launch.inner_loops.size(); ++l) {
      const InnerLoop& loop = launch.inner_loops[l];
      std::vector<std::string> strategies;
      for (int s = 0; s < kLoopStrategyCount; ++s) {
        const auto strategy = static_cast<LoopStrategy>(s);
        const std::string& reason = loop.reason_against(strategy);
        strategies.push_back(reason.empty()
                                 ? std::string(loop_strategy_name(strategy))
                                 : fmt::format("no {} ({})", loop_strategy_name(strategy), reason));
      }
      const SourceRange& range = loop.loop->range;
      const uint32_t line = range.valid() ? range.file->line_column(range.begin).line : 0;
      out_ += fmt::format("    inner loop {} (line {}){}{}: {}\n", l, line,
                          loop.parent >= 0 ? fmt::format(" in loop {}", loop.parent) : "",
                          loop.top_level ? " top-level" : "", fmt::join(strategies, "; "));
      if (loop.skip) {
        out_ += fmt::format(
            "      skips blocks where {}.begin > {}.end - 1 + {} (the step leaves its carries "
            "unchanged)\n",
            tile_name(loop.skip->inner_dim), tile_name(loop.skip->outer_dim), loop.skip->offset);
      }
      // Where the operands the loop tiles live under each strategy.
      std::vector<std::string> streamed;
      for (int input : loop.streamed_inputs) {
        streamed.push_back(
            kernel_.bindings[launch.inputs[static_cast<size_t>(input)].operand.binding].name);
      }
      if (!streamed.empty()) {
        out_ += fmt::format(
            "      tiles {}: unroll = whole axis resident in VMEM, grid = VMEM blocks, "
            "emit_pipeline/fori_loop = pl.ANY (HBM) copied into VMEM buffers\n",
            fmt::join(streamed, ", "));
      }
      if (!loop.tile_loop().carried.empty()) {
        std::vector<std::string> carried;
        for (const ir::TileLoop::Carry& carry : loop.tile_loop().carried) {
          carried.push_back(kernel_.bindings[carry.init].name);
        }
        out_ += fmt::format(
            "      carries {}: unroll/fori_loop = loop carry (vregs), grid/emit_pipeline = VMEM "
            "scratch\n",
            fmt::join(carried, ", "));
      }
    }
    for (size_t i = 0; i < launch.inputs.size(); ++i) {
      const Input& input = launch.inputs[i];
      std::string kind;
      switch (input.kind) {
        case Input::Kind::kRead:
          kind = "read";
          break;
        case Input::Kind::kAliasedRead:
          kind = fmt::format("aliased read of output {}", input.output);
          break;
        case Input::Kind::kAliasedUnread:
          kind = fmt::format("aliased whole for output {}", input.output);
          break;
      }
      if (input.gather_ids_of >= 0) {
        kind += fmt::format(", the indices of input {}'s dma gather", input.gather_ids_of);
      }
      out_ += fmt::format("    input {}: {} ({})\n", i, operand(input.operand), kind);
    }
    for (size_t o = 0; o < launch.outputs.size(); ++o) {
      const Output& output = launch.outputs[o];
      std::string masked;
      for (int axis : output.masked_axes) masked += fmt::format(" masked axis {}", axis);
      if (output.masked_in_place) masked += " in place";
      out_ += fmt::format(
          "    output {}: {}{}{}\n", o, operand(output.operand),
          output.aliased_input >= 0
              ? fmt::format(" (aliased to input {}: {})", output.aliased_input, output.alias_reason)
              : "",
          masked);
    }
    for (const Capture& capture : launch.captures) {
      static constexpr const char* kKinds[] = {"value", "dtype", "shape", "block", "gather_by_dma"};
      out_ += fmt::format("    capture {} {}\n", kKinds[static_cast<int>(capture.kind)],
                          capture.kind == Capture::Kind::kBlock
                              ? tile_name(capture.tile_dim)
                              : kernel_.bindings[capture.binding].name);
    }
    for (const auto& [binding, axis] : launch.program_ids) {
      out_ += fmt::format("    program_id {} = axis {}\n", kernel_.bindings[binding].name, axis);
    }
    out_ += fmt::format("    flops {}\n", terms(launch.cost.flops));
    out_ += fmt::format("    transcendentals {}\n", terms(launch.cost.transcendentals));
    for (const LaunchSchedule& schedule : launch.schedules) {
      out_ += print_schedule(kernel_, launch, schedule);
    }
  }

  const ir::Kernel& kernel_;
  const KernelPlan& plan_;
  std::string out_;
};

}  // namespace

std::string print_plan(const ir::Kernel& kernel, const KernelPlan& plan) {
  return PlanPrinter(kernel, plan).print();
}

std::vector<int> revisited_dims(const Launch& launch) {
  std::set<int> dims;
  for (const Output& output : launch.outputs) {
    dims.insert(output.revisiting_dims.begin(), output.revisiting_dims.end());
  }
  return {dims.begin(), dims.end()};
}

std::vector<int64_t> default_grid_order(const Launch& launch) {
  const std::vector<int> revisited = revisited_dims(launch);
  std::vector<int64_t> order;
  const int own = static_cast<int>(launch.tile_loop().tile_dims.size());
  for (int d = 0; d < own; ++d) {
    if (std::find(revisited.begin(), revisited.end(), d) == revisited.end()) order.push_back(d);
  }
  order.insert(order.end(), revisited.begin(), revisited.end());
  return order;
}

bool order_keeps_revisited_last(const Launch& launch, const std::vector<int64_t>& order) {
  const std::vector<int> revisited = revisited_dims(launch);
  bool seen_revisited = false;
  for (int64_t d : order) {
    const bool is_revisited = std::find(revisited.begin(), revisited.end(), d) != revisited.end();
    if (seen_revisited && !is_revisited) return false;
    seen_revisited = seen_revisited || is_revisited;
  }
  return true;
}

size_t first_inner_loop(const KernelPlan& plan, int launch) {
  size_t first = 0;
  for (const Launch& earlier : plan.launches) {
    if (earlier.index >= launch) break;
    first += earlier.inner_loops.size();
  }
  return first;
}

bool orders_grid(const Launch& launch) {
  return !launch.variadic && launch.tile_loop().tile_dims.size() > 1;
}

int loop_order_entry(const KernelPlan& plan, int launch) {
  int entry = 0;
  for (const Launch& earlier : plan.launches) {
    if (earlier.index == launch) return orders_grid(earlier) ? entry : -1;
    if (orders_grid(earlier)) ++entry;
  }
  return -1;
}

}  // namespace helionc::passes
