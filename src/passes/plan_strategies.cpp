#include "passes/plan_strategies.h"

#include <fmt/format.h>

#include <algorithm>

#include "ir/visitor.h"

namespace helionc::passes {

namespace {

// Why the loop's carried values cannot live in VMEM scratch between steps, or "".
std::string against_scratch(const ir::Kernel& kernel, const ir::TileLoop& loop) {
  for (const ir::TileLoop::Carry& carry : loop.carried) {
    const ir::Binding& value = kernel.bindings[carry.init];
    if (value.type.kind != ir::TypeKind::kTileTensor || value.type.variadic) {
      return fmt::format(
          "the carried value `{}` is not a tile of static rank (it would live in "
          "VMEM scratch)",
          value.name);
    }
    if (!value.type.dtype) {
      return fmt::format(
          "the dtype of the carried value `{}` is only known at trace time (its "
          "VMEM scratch is declared on the host)",
          value.name);
    }
    for (const ir::Dim& dim : value.type.dims) {
      if (dim.kind != ir::Dim::Kind::kSlice) continue;
      return fmt::format(
          "the carried value `{}` has the shape of a slice (its VMEM scratch is declared on "
          "the host, which does not size slices)",
          value.name);
    }
  }
  return "";
}

// Why the loop cannot become the last grid axis, or "".
std::string against_grid(const ir::Kernel& kernel, const Launch& launch, size_t index) {
  const InnerLoop& inner = launch.inner_loops[index];
  if (!inner.top_level) {
    return inner.parent >= 0 ? "it is nested in another inner loop"
                             : "it is inside an `if` or an `hl.static_range` loop";
  }
  if (index > 0) {
    return "another inner loop runs before it (that loop would run again at every grid step)";
  }
  if (launch.variadic) return "the launch's rank is only known at trace time";
  const ir::TileLoop& loop = inner.tile_loop();
  for (int dim : loop.tile_dims) {
    const ir::TileDim& tile = kernel.tile_dims[dim];
    if (ir::bounds_from_tensors(tile)) {
      return "its bounds are read from tensors, and a grid has the same length at every step";
    }
    if (ir::bounds_in_kernel(kernel, tile)) {
      return "its bounds depend on the outer tile, and a grid has the same length at every step";
    }
  }
  for (const Output& output : launch.outputs) {
    if (!output.masked_in_place) continue;
    for (int axis : output.masked_axes) {
      const int dim = output.operand.view[static_cast<size_t>(axis)].tile_dim;
      if (std::find(loop.tile_dims.begin(), loop.tile_dims.end(), dim) == loop.tile_dims.end()) {
        continue;
      }
      // Its block holds the loop's whole axis while the loop writes windows of it.
      return fmt::format(
          "it may not cover `{}`, whose block keeps its old contents outside the loop's range",
          kernel.bindings[output.operand.binding].name);
    }
  }
  for (const Output& output : launch.outputs) {
    if (output.revisiting_dims.empty()) continue;
    for (const ViewAxis& axis : output.operand.view) {
      if (axis.kind != ViewAxis::Kind::kTile ||
          std::find(loop.tile_dims.begin(), loop.tile_dims.end(), axis.tile_dim) ==
              loop.tile_dims.end()) {
        continue;
      }
      // The steps along the outer dimension must follow one another on each of `output`'s
      // blocks, but a last grid axis would visit the loop's other blocks in between.
      return fmt::format(
          "`{}`'s blocks are revisited along an outer dimension (the stores pick elements) and "
          "the loop's own steps would visit its other blocks in between",
          kernel.bindings[output.operand.binding].name);
    }
  }
  return against_scratch(kernel, loop);
}

// Whether a statement list stores into an array (directly or in a nested block).
bool stores_anything(const ir::Block& block) {
  for (const ir::StmtPtr& stmt : block) {
    if (stmt->kind == ir::StmtKind::kStore) return true;
    if (const auto* loop = stmt->as<ir::TileLoop>(); loop && stores_anything(loop->body)) {
      return true;
    }
    if (const auto* loop = stmt->as<ir::StaticLoop>(); loop && stores_anything(loop->body)) {
      return true;
    }
    if (const auto* branch = stmt->as<ir::If>();
        branch && (stores_anything(branch->then_body) || stores_anything(branch->else_body))) {
      return true;
    }
  }
  return false;
}

// The inputs tiled by inner loop `index`'s dimension.
std::vector<int> streamed_inputs(const Launch& launch, int index) {
  std::vector<int> inputs;
  for (size_t i = 0; i < launch.inputs.size(); ++i) {
    for (const ViewAxis& axis : launch.inputs[i].operand.view) {
      if (axis.kind != ViewAxis::Kind::kTile) continue;
      bool ours = false;
      for (const GridDim& dim : launch.grid) {
        ours |= dim.tile_dim == axis.tile_dim && dim.inner_loop == index;
      }
      if (ours) {
        inputs.push_back(static_cast<int>(i));
        break;
      }
    }
  }
  return inputs;
}

// Why the loop's inputs cannot be streamed from HBM by hand-written DMAs or emit_pipeline.
std::string against_streaming(const ir::Kernel& kernel, const Launch& launch, size_t index) {
  const InnerLoop& inner = launch.inner_loops[index];
  const ir::TileLoop& loop = inner.tile_loop();
  if (loop.tile_dims.size() != 1) return "it has more than one dimension";
  for (const InnerLoop& other : launch.inner_loops) {
    if (other.parent == static_cast<int>(index)) return "it contains another inner loop";
  }
  if (stores_anything(loop.body)) {
    return "it stores into an array (only the loop's reads are streamed)";
  }
  if (inner.streamed_inputs.empty()) return "no input is tiled by the loop";
  for (int i : inner.streamed_inputs) {
    const Input& input = launch.inputs[static_cast<size_t>(i)];
    const Operand& operand = input.operand;
    const std::string& name = kernel.bindings[operand.binding].name;
    if (input.kind != Input::Kind::kRead || operand.smem || operand.variadic || operand.reshaped) {
      return fmt::format("`{}` is not read through a plain block", name);
    }
    for (const ViewAxis& axis : operand.view) {
      if (axis.gather ||
          (axis.kind != ViewAxis::Kind::kTile && axis.kind != ViewAxis::Kind::kFull)) {
        return fmt::format("`{}` is indexed with more than tiles and `:`", name);
      }
      if (axis.kind != ViewAxis::Kind::kTile) continue;
      for (const GridDim& dim : launch.grid) {
        if (dim.tile_dim == axis.tile_dim && dim.inner_loop >= 0 &&
            dim.inner_loop != static_cast<int>(index)) {
          return fmt::format("`{}` is also tiled by another inner loop", name);
        }
      }
    }
  }
  return "";
}

// Whether inner loop `index` is paired (GridDim::from_begin): its blocks start at its begin.
bool from_begin(const Launch& launch, size_t index) {
  return std::any_of(launch.grid.begin(), launch.grid.end(), [&](const GridDim& dim) {
    return dim.inner_loop == static_cast<int>(index) && dim.from_begin;
  });
}

}  // namespace

void judge_loop_strategies(const ir::Kernel& kernel, Launch& launch) {
  for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
    InnerLoop& inner = launch.inner_loops[i];
    auto reason = [&](LoopStrategy s) -> std::string& {
      return inner.not_applicable[static_cast<size_t>(s)];
    };
    reason(LoopStrategy::kUnroll) = "";
    reason(LoopStrategy::kGrid) = against_grid(kernel, launch, i);
    inner.streamed_inputs = streamed_inputs(launch, static_cast<int>(i));
    // A streamed input's block shape names the blocks of all its tiled axes, also those of
    // outer loops nothing else in the kernel sizes (a tile of one row a reshape merges away).
    for (int input : inner.streamed_inputs) {
      for (const ViewAxis& axis : launch.inputs[static_cast<size_t>(input)].operand.view) {
        const Capture block{Capture::Kind::kBlock, -1, axis.tile_dim};
        const bool captured =
            std::any_of(launch.captures.begin(), launch.captures.end(), [&](const Capture& c) {
              return c.kind == block.kind && c.binding == -1 && c.tile_dim == block.tile_dim;
            });
        if (axis.kind == ViewAxis::Kind::kTile && !captured) launch.captures.push_back(block);
      }
    }
    const std::string streaming = against_streaming(kernel, launch, i);
    reason(LoopStrategy::kEmitPipeline) =
        !streaming.empty() ? streaming
        : from_begin(launch, i)
            ? "its blocks start at the loop's begin (its tiles are combined row by row with "
              "another loop's), which the pipeline's index maps, counting whole blocks, cannot "
              "express"
            : against_scratch(kernel, inner.tile_loop());
    reason(LoopStrategy::kForiLoop) = streaming;
  }
}

LoopStrategy default_strategy(const InnerLoop& loop) {
  return loop.reason_against(LoopStrategy::kGrid).empty() ? LoopStrategy::kGrid
                                                          : LoopStrategy::kUnroll;
}

}  // namespace helionc::passes
