#include "passes/plan_strategies.h"

#include <fmt/format.h>

#include "ir/visitor.h"

namespace helionc::passes {

namespace {

// Whether `expr` reads a value of the kernel (a tile attribute, a device value).
bool reads_kernel_values(const ir::Kernel& kernel, const ir::ExprPtr& expr) {
  if (!expr) return false;
  bool found = false;
  ir::for_each_expr(ir::Block{ir::Return::make({expr}, expr->range)}, [&](const ir::Expr& e) {
    if (e.kind == ir::ExprKind::kTileAttr) found = true;
    if (const auto* ref = e.as<ir::VarRef>()) {
      const auto origin = kernel.bindings[ref->binding].origin;
      found = found || origin == ir::Binding::Origin::kDevice ||
              origin == ir::Binding::Origin::kLoopVar;
    }
  });
  return found;
}

// Why the loop cannot become the last grid axis, or "".
std::string against_grid(const ir::Kernel& kernel, const Launch& launch, size_t index) {
  const InnerLoop& inner = launch.inner_loops[index];
  if (!inner.top_level) {
    return inner.parent >= 0 ? "it is nested in another inner loop" : "it is inside an `if`";
  }
  if (index > 0) {
    return "another inner loop runs before it (that loop would run again at every grid step)";
  }
  if (launch.variadic) return "the launch's rank is only known at trace time";
  const ir::TileLoop& loop = inner.tile_loop();
  for (int dim : loop.tile_dims) {
    const ir::TileDim& tile = kernel.tile_dims[dim];
    if (reads_kernel_values(kernel, tile.begin) || reads_kernel_values(kernel, tile.extent)) {
      return "its bounds depend on the outer tile, and a grid has the same length at every step";
    }
  }
  for (const ir::TileLoop::Carry& carry : loop.carried) {
    const ir::Binding& value = kernel.bindings[carry.init];
    if (value.type.kind != ir::TypeKind::kTileTensor || value.type.variadic) {
      return fmt::format("the carried value `{}` is not a tile of static rank (it would live in "
                         "VMEM scratch)",
                         value.name);
    }
    if (!value.type.dtype) {
      return fmt::format("the dtype of the carried value `{}` is only known at trace time (its "
                         "VMEM scratch is declared on the host)",
                         value.name);
    }
  }
  return "";
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
    reason(LoopStrategy::kEmitPipeline) = "helionc does not generate `emit_pipeline` loops yet";
    reason(LoopStrategy::kForiLoop) = "helionc does not generate `fori_loop` DMA loops yet";
  }
}

}  // namespace helionc::passes
