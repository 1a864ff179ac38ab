// The schedule of a launch: how one `pl.pallas_call` runs under one combination of inner-loop
// strategies. Every scheduling decision is made here, once, from the launch plan
// (launch_plan.h) and the strategies: which launch dimensions are axes of the pallas grid (and
// their semantics), which stay resident in VMEM and which the kernel streams from HBM; per
// operand its memory space, buffering and host padding; the scratch buffers in the kernel's
// parameter order; where blocks can be partial (the mask sites). The module printer, the
// resource accounting (`--emit report`, the VMEM checks) and the search read this structure
// and derive nothing again.
//
// Nothing here depends on shapes: block sizes are computed while JAX traces (in the module) or
// from concrete shapes (launch_resources.h), both from the same schedule.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "passes/loop_strategy.h"

namespace helionc::ir {
struct Expr;
struct Kernel;
struct Let;
struct Stmt;
}  // namespace helionc::ir

namespace helionc::passes {

struct Launch;
struct KernelPlan;

// How the blocks of one launch dimension (a Launch::grid entry) are visited.
enum class DimRun {
  kGridAxis,  // an axis of the pallas_call's grid: one block per grid step, by BlockSpec
  kResident,  // `unroll`: the whole array axis stays in VMEM; the body reads windows (`pl.ds`)
  kStreamed,  // `emit_pipeline` / `fori_loop`: the body copies blocks of its streamed inputs
};
std::string_view dim_run_name(DimRun run);  // "grid", "resident", "streamed"

// Whether a block of a dimension can hold elements outside the loop's range (a mask site for
// reductions, products and stores that must keep old values).
enum class PartialBlocks {
  kNever,      // `hl.grid`: blocks of one element
  kTraceTime,  // decided while JAX traces: the bounds are host values (`k % block_k != 0`)
  kRunTime,    // the bounds read kernel values (`hl.tile(0, tile_m.end)`, any-rank tiles)
};

struct DimSchedule {
  std::optional<LoopStrategy> strategy;  // nullopt: the launch's own dimension
  DimRun run = DimRun::kGridAxis;
  int pallas_axis = -1;    // kGridAxis: its position in the pallas_call grid, before
                           // `loop_orders` reorders the launch's own axes; else -1
  bool arbitrary = false;  // kGridAxis: carries values from step to step, so the axis runs in
                           // order ("arbitrary"); the launch's own axes are "parallel"
  PartialBlocks partial = PartialBlocks::kTraceTime;
};

enum class MemorySpace {
  kVmem,  // a BlockSpec block in VMEM (Pallas double-buffers it across grid steps)
  kSmem,  // the whole array in SMEM, as 32-bit words (`_smem_array`)
  kHbm,   // left in HBM (`pl.ANY`): the kernel copies what it needs, or never reads it
};
std::string_view memory_space_name(MemorySpace memory);  // "VMEM", "SMEM", "ANY"

// Where an operand's view axis lives (parallel to Operand::view).
enum class AxisPlacement {
  kBlock,     // a block of a grid-axis dimension, or of a dimension the kernel streams
  kResident,  // the whole array axis of an `unroll` dimension, padded to whole blocks
  kWhole,     // a `:` axis (all of it), or a column window
  kNone,      // a scalar or unit axis: no extent of its own
};

struct OperandSchedule {
  MemorySpace memory = MemorySpace::kVmem;
  // Copies held in VMEM for the operand itself: 2 for BlockSpec blocks, else 0 (SMEM holds one
  // copy; streamed inputs live in the inner loop's buffers, ScratchBuffer::kStreamSlots).
  int vmem_buffers = 2;
  std::vector<AxisPlacement> axes;  // per view axis (static views)
  // Launch dimensions (Launch::grid positions) that are grid axes and that the block index
  // depends on (tiles on the grid, `hl.grid` variables in scalar and column indices), in order:
  // Pallas copies the block again only when one of these changes.
  std::vector<int> index_dims;
  // Those of `index_dims` that a scalar index selects (`x[i, :]` under `hl.grid`): each step
  // moves a different slice.
  std::vector<int> selected_dims;
  // The inner loop whose body copies this input's blocks from HBM (`fori_loop` by hand,
  // `emit_pipeline` by its own pipeline), or -1.
  int streamed_by = -1;
  // Zero-padded to whole blocks on the host (`_pad_to_blocks`), so the padding reads as zeros:
  // sums and products along the loop's axis need no mask (zero is their identity). Streamed
  // inputs always are (the copies must not read past the array's end); under `grid` and
  // `unroll`, the operands of a product along the loop that the launch reads more than once
  // (schedule.cpp: pad_reread_product_operands), padded along the loop's axis only.
  bool zero_padded = false;
  // A row-gather table whose rows may be copied by DMA: left in HBM when the module's trace-time
  // plan (`_gather_plan`) chooses DMA, else a VMEM block like any other.
  bool hbm_when_gathered_by_dma = false;
  std::string why;  // for the dump and the report: "streamed by fori_loop over tile_k", ...
};

// One `scratch_shapes` entry of the pallas_call, in the kernel's parameter order.
struct ScratchBuffer {
  enum class Kind {
    kGridCarry,         // a value the `grid` inner loop carries across steps (VMEM)
    kPipelineCarry,     // a value an `emit_pipeline` loop carries (VMEM)
    kPipelineStep,      // the `emit_pipeline` loop's step number (SMEM, one int32)
    kStreamSlots,       // `fori_loop`: the VMEM slots of one streamed input (buffer count)
    kStreamSemaphores,  // `fori_loop`: the DMA semaphores of all its streamed inputs
    kGatherRows,        // a row gather by DMA: the block's rows (VMEM; a placeholder otherwise)
    kGatherSemaphore,   // its DMA semaphore
  };
  Kind kind = Kind::kGridCarry;
  int inner_loop = -1;  // the loop (all but the gather kinds)
  int carry = -1;       // kGridCarry, kPipelineCarry: index into the loop's `carried`
  int input = -1;       // kStreamSlots: the streamed input; gather kinds: the table input
  // kGridCarry, kPipelineCarry: the carried value is a lane row (plan_lane_rows.h), held with a
  // last axis of 128 lanes more than its own shape.
  bool lane_rows = false;

  // A value an inner loop carries across steps (kGridCarry, kPipelineCarry).
  bool holds_carry() const { return kind == Kind::kGridCarry || kind == Kind::kPipelineCarry; }
};
// The lanes a lane row repeats its value over: one vector register's width.
inline constexpr int64_t kLaneRowLanes = 128;
std::string_view scratch_kind_name(ScratchBuffer::Kind kind);

// What the padding of a partial block holds along a tile dimension (plan_padding.h): values of
// unknown kind, possibly NaN (garbage), a known constant (the identity of some reduction), or
// finite values.
enum class Pad { kGarbage, kZero, kOne, kNegInf, kPosInf, kFinite };
std::string_view pad_name(Pad pad);  // "garbage", "0", "1", "lowest", "highest", "finite"

// A local of the body whose padding along `tile_dim` is replaced by `fill` where it is defined,
// so that the reductions and products that read it need no mask of their own (plan_padding.h).
struct DefinitionMask {
  int binding = -1;
  int tile_dim = -1;
  Pad fill = Pad::kZero;
};

// A loop-invariant value an inner loop's body computes, computed once before the loop instead
// (plan_hoists.h): a whole `let` of the body, or a part of a statement's value (printed before
// the loop under a name of its own, which the statement then reads).
struct HoistedValue {
  const ir::Let* let = nullptr;          // owned by the IR, which outlives the plan
  std::shared_ptr<const ir::Expr> expr;  // when `let` is null
};

struct LaunchSchedule {
  std::vector<LoopStrategy> strategies;  // one per Launch::inner_loops entry
  std::vector<DimSchedule> dims;         // per Launch::grid entry
  std::vector<int> pallas_grid;          // launch dimensions on the pallas grid, in grid order
  std::vector<OperandSchedule> inputs;   // per Launch::inputs entry
  std::vector<OperandSchedule> outputs;  // per Launch::outputs entry
  std::vector<ScratchBuffer> scratch;
  // The inner loop run as the last grid axes (at most one per launch), or -1: the statements
  // after it run at its last step.
  int grid_loop = -1;
  std::vector<DefinitionMask> definition_masks;  // in the order they were chosen
  // The body's bindings held as lane rows (plan_lane_rows.h).
  std::set<int> lane_rows;
  // Per inner loop (Launch::inner_loops), the values of its body computed once before it: its
  // loop-invariant values, where the loop is a loop in the kernel body (plan_hoists.h).
  std::vector<std::vector<HoistedValue>> hoisted;

  // Whether `stmt` is one of inner loop `inner`'s hoisted `let`s.
  bool hoisted_from(size_t inner, const ir::Stmt* stmt) const;

  // The fill of `binding`'s definition mask along `tile_dim`, if it has one.
  std::optional<Pad> definition_mask(int binding, int tile_dim) const {
    for (const DefinitionMask& mask : definition_masks) {
      if (mask.binding == binding && mask.tile_dim == tile_dim) return mask.fill;
    }
    return std::nullopt;
  }

  const OperandSchedule& input(int i) const { return inputs[static_cast<size_t>(i)]; }
  const DimSchedule& dim(size_t g) const { return dims[g]; }
  bool on_grid(size_t g) const { return dims[g].run == DimRun::kGridAxis; }
};

// The schedule of `launch` with `strategies` (one per inner loop, each applicable: see
// InnerLoop::reason_against).
LaunchSchedule schedule_launch(const ir::Kernel& kernel, const Launch& launch,
                               const std::vector<LoopStrategy>& strategies);

// Every combination of applicable strategies of `launch`'s inner loops, the default
// (default_strategy for each loop) first, then in order (first loop slowest); at most
// `limit` combinations.
std::vector<std::vector<LoopStrategy>> strategy_combinations(const Launch& launch,
                                                             size_t limit = 64);

// The schedule pass: every launch's schedules (Launch::schedules), one per combination.
void schedule_kernel(const ir::Kernel& kernel, KernelPlan& plan);

// The stored schedule of `strategies` (Launch::schedules), or null.
const LaunchSchedule* stored_schedule(const Launch& launch,
                                      const std::vector<LoopStrategy>& strategies);

// The stored schedule of `strategies`, else a new one.
LaunchSchedule find_schedule(const ir::Kernel& kernel, const Launch& launch,
                             const std::vector<LoopStrategy>& strategies);

// A readable dump (`--dump-after schedule`, golden schedule dumps, unit tests).
std::string print_schedule(const ir::Kernel& kernel, const Launch& launch,
                           const LaunchSchedule& schedule);

}  // namespace helionc::passes
