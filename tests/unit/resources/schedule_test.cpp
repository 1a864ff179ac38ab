// The scheduling pass (passes/schedule.h) on kernels compiled from source: per strategy, the
// grid axes and their semantics, each operand's memory space and axis placement, the scratch
// buffers in the kernel's parameter order; and the resource accounting reading the same
// decisions.
#include <catch2/catch.hpp>

#include "frontend/lowering_fixture.h"
#include "passes/host_values.h"
#include "passes/launch_resources.h"
#include "passes/pipeline.h"
#include "passes/schedule.h"
#include "resources/compiled_kernel.h"

namespace helionc {
namespace {

using passes::AxisPlacement;
using passes::DimRun;
using passes::LoopStrategy;
using passes::MemorySpace;
using ScratchKind = passes::ScratchBuffer::Kind;

// Reads `scale` only as a scalar (SMEM) and writes only rows from `start` of an initialised
// `out` (its old contents are aliased and kept in place).
const char* kScaleRows = R"(@helion.kernel()
def scale_rows(x: torch.Tensor, scale: torch.Tensor, start: int) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros_like(x)
    for i in hl.grid(start, m):
        out[i, :] = x[i, :] * scale[0]
    return out
)";

passes::LaunchSchedule schedule(const Compiled& compiled, std::vector<LoopStrategy> strategies) {
  return passes::find_schedule(compiled.kernel(), compiled.launch(), strategies);
}

std::vector<ScratchKind> kinds(const passes::LaunchSchedule& schedule) {
  std::vector<ScratchKind> result;
  for (const passes::ScratchBuffer& buffer : schedule.scratch) result.push_back(buffer.kind);
  return result;
}

TEST_CASE("the schedule pass stores one schedule per applicable combination, default first") {
  const Compiled mm = compile(kMatmul);
  std::vector<std::vector<LoopStrategy>> stored;
  for (const passes::LaunchSchedule& s : mm.launch().schedules) stored.push_back(s.strategies);
  CHECK(stored == std::vector<std::vector<LoopStrategy>>{{LoopStrategy::kGrid},
                                                         {LoopStrategy::kUnroll},
                                                         {LoopStrategy::kEmitPipeline},
                                                         {LoopStrategy::kForiLoop}});
  const Compiled rows = compile(kScaleRows);
  REQUIRE(rows.launch().schedules.size() == 1);
  CHECK(rows.launch().schedules.front().strategies.empty());
}

TEST_CASE("matmul under grid: k is the last, arbitrary grid axis; the carry is VMEM scratch") {
  const Compiled mm = compile(kMatmul);
  const passes::LaunchSchedule s = schedule(mm, {LoopStrategy::kGrid});
  REQUIRE(s.dims.size() == 3);
  CHECK(s.pallas_grid == std::vector<int>{0, 1, 2});
  CHECK_FALSE(s.dims[0].arbitrary);
  CHECK_FALSE(s.dims[1].arbitrary);
  CHECK(s.dims[2].arbitrary);
  CHECK(s.dims[2].partial == passes::PartialBlocks::kTraceTime);
  CHECK(s.grid_loop == 0);
  CHECK(s.inputs[0].memory == MemorySpace::kVmem);
  CHECK(s.inputs[0].vmem_buffers == 2);
  CHECK(s.inputs[0].index_dims == std::vector<int>{0, 2});
  CHECK(s.inputs[1].index_dims == std::vector<int>{1, 2});
  CHECK(s.outputs[0].index_dims == std::vector<int>{0, 1});
  CHECK(kinds(s) == std::vector<ScratchKind>{ScratchKind::kGridCarry});
  // Both operands of the product along k are read again for every block of the other output
  // axis: zero-padded on the host, so the product needs no mask.
  CHECK(s.inputs[0].zero_padded);
  CHECK(s.inputs[1].zero_padded);
  CHECK(s.inputs[0].streamed_by == -1);
}

TEST_CASE("matmul under unroll: k resident in VMEM, no grid axis, no scratch") {
  const Compiled mm = compile(kMatmul);
  const passes::LaunchSchedule s = schedule(mm, {LoopStrategy::kUnroll});
  CHECK(s.pallas_grid == std::vector<int>{0, 1});
  CHECK(s.dims[2].run == DimRun::kResident);
  CHECK(s.dims[2].pallas_axis == -1);
  CHECK(s.inputs[0].axes ==
        std::vector<AxisPlacement>{AxisPlacement::kBlock, AxisPlacement::kResident});
  CHECK(s.inputs[1].axes ==
        std::vector<AxisPlacement>{AxisPlacement::kResident, AxisPlacement::kBlock});
  CHECK(s.inputs[0].index_dims == std::vector<int>{0});
  CHECK(s.grid_loop == -1);
  CHECK(s.scratch.empty());
}

TEST_CASE("matmul under the streaming strategies: inputs in HBM, zero-padded, own scratch") {
  const Compiled mm = compile(kMatmul);
  for (LoopStrategy strategy : {LoopStrategy::kEmitPipeline, LoopStrategy::kForiLoop}) {
    INFO(passes::loop_strategy_name(strategy));
    const passes::LaunchSchedule s = schedule(mm, {strategy});
    CHECK(s.dims[2].run == DimRun::kStreamed);
    for (const passes::OperandSchedule& input : s.inputs) {
      CHECK(input.memory == MemorySpace::kHbm);
      CHECK(input.vmem_buffers == 0);
      CHECK(input.streamed_by == 0);
      CHECK(input.zero_padded);
      CHECK(input.axes == std::vector<AxisPlacement>{AxisPlacement::kBlock, AxisPlacement::kBlock});
    }
    CHECK(s.outputs[0].memory == MemorySpace::kVmem);
    CHECK_FALSE(s.outputs[0].zero_padded);
  }
  CHECK(kinds(schedule(mm, {LoopStrategy::kEmitPipeline})) ==
        std::vector<ScratchKind>{ScratchKind::kPipelineCarry, ScratchKind::kPipelineStep});
  const passes::LaunchSchedule fori = schedule(mm, {LoopStrategy::kForiLoop});
  CHECK(kinds(fori) == std::vector<ScratchKind>{ScratchKind::kStreamSlots,
                                                ScratchKind::kStreamSlots,
                                                ScratchKind::kStreamSemaphores});
  CHECK(fori.scratch[0].input == 0);
  CHECK(fori.scratch[1].input == 1);
}

TEST_CASE("scalar-only reads go to SMEM; an output kept where not written stays in HBM") {
  const Compiled rows = compile(kScaleRows);
  const passes::Launch& launch = rows.launch();
  const passes::LaunchSchedule& s = launch.schedules.front();
  bool smem = false, kept = false;
  for (size_t i = 0; i < launch.inputs.size(); ++i) {
    const std::string& name = rows.kernel().bindings[launch.inputs[i].operand.binding].name;
    if (name == "scale") {
      smem = true;
      CHECK(s.inputs[i].memory == MemorySpace::kSmem);
      CHECK(s.inputs[i].vmem_buffers == 0);
    }
    if (launch.inputs[i].kind == passes::Input::Kind::kAliasedUnread) {
      kept = true;
      CHECK(s.inputs[i].memory == MemorySpace::kHbm);
    }
  }
  CHECK(smem);
  CHECK(kept);
  // Blocks of one row are never partial; the row is selected by the grid index.
  CHECK(s.dims[0].partial == passes::PartialBlocks::kNever);
  CHECK(s.inputs[0].selected_dims == std::vector<int>{0});
  CHECK(s.inputs[0].axes.back() == AxisPlacement::kWhole);
}

TEST_CASE("the accounting reads the schedule's memory spaces") {
  const Compiled mm = compile(kMatmul);
  std::map<int, passes::ConcreteTensor> args;
  for (const ir::Param& param : mm.kernel().params) {
    args[param.binding] = {{1024, 1024}, ir::ScalarType::kBFloat16};
  }
  const passes::HostValues values(mm.kernel(), std::move(args));
  for (const passes::LaunchSchedule& s : mm.launch().schedules) {
    INFO(passes::loop_strategy_name(s.strategies.front()));
    passes::LaunchChoices choices;
    choices.block_sizes = {256, 256, 256};
    choices.strategies = s.strategies;
    auto resources = passes::account_launch(mm.kernel(), mm.launch(), s, values, choices);
    REQUIRE(resources);
    using RKind = passes::OperandResources::Kind;
    int input = 0;
    for (const passes::OperandResources& r : resources->operands) {
      if (r.kind != RKind::kInput) continue;
      CHECK(r.memory == passes::memory_space_name(s.inputs[static_cast<size_t>(input++)].memory));
    }
    CHECK(input == 2);
  }
}

}  // namespace
}  // namespace helionc
