// Resource accounting per launch (issue 4): for concrete argument shapes and one config, what
// a `pl.pallas_call` of the generated module will use. `--emit report` prints it; the config
// legality check (autotune/legality.h) and, later, the cost model read it.
//
// - Blocks: each tile dimension's block exactly as the module computes it while tracing
//   (legal_block.h mirrors the prelude's `_legal_block`).
// - Grid: the launch's own tile dimensions, plus inner loops run as `grid` (the last,
//   "arbitrary" axes); steps per axis and in all.
// - VMEM bytes: every BlockSpec operand in VMEM holds its block twice (Pallas double-buffers
//   inputs and outputs); `unroll` keeps the looped axis resident (`cdiv(size, block) * block`);
//   `grid`, `emit_pipeline` and `fori_loop` keep the loop's carried values in VMEM scratch
//   (once); `emit_pipeline` and `fori_loop` leave the looped operands in HBM (`pl.ANY`) and
//   stream their inner blocks through `pallas_load_buffer_count` VMEM buffers (default 2).
//   SMEM operands and `pl.ANY` operands take no VMEM; SMEM operands are counted as SMEM bytes
//   (whole arrays as 32-bit words, as the module passes them, in SMEM's tiled layout, which is
//   VMEM's). Bytes are those of the blocks as the TPU compiler lays them out
//   (vmem_formula.h, tiled_vmem_bytes).
// - HBM bytes: the blocks fetched (inputs) and written back (outputs) over the grid. Pallas
//   skips a copy when consecutive grid steps use the same block, so an operand moves its
//   covered part of the array once per combination of the grid axes up to the last one its
//   block index depends on; edge blocks are clipped to the array.
// - Flops and transcendentals: the launch's CostTerms (Launch::cost) evaluated like the
//   module's `pl.CostEstimate`: a term's tiled dimensions count their whole extent, and a term
//   is repeated over the launch's own grid axes it is not tiled by. Product terms are also
//   listed with the block shape of one product (ProductResources), for the cost model.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "passes/host_values.h"
#include "passes/launch_plan.h"
#include "support/expected.h"

namespace helionc::passes {

// One config as it applies to one launch.
struct LaunchChoices {
  // By tunable index (BlockSource::tunable); missing or nullopt entries take the default.
  std::vector<std::optional<int64_t>> block_sizes;
  // One per inner loop of the launch (Launch::inner_loops order), already checked to apply.
  std::vector<LoopStrategy> strategies;
  // One per inner loop of the launch; missing entries are 2. Used by the streaming strategies.
  std::vector<int64_t> buffer_counts;
  // The grid order of the launch's own dimensions (`loop_orders`): positions in its tile
  // loop's dimensions, outermost grid axis first; empty: as written. Inner `grid` axes come
  // after them either way.
  std::vector<int64_t> loop_order;
  // The target's scoped VMEM for moving a lane reduction's result into lanes
  // (TargetInfo::lane_move_scratch_bytes, vmem_formula.h lane_moves_vmem).
  int64_t lane_move_scratch_bytes = 0;
};

inline constexpr int64_t kDefaultBufferCount = 2;

struct OperandResources {
  enum class Kind { kInput, kOutput, kScratch, kStream };
  Kind kind = Kind::kInput;
  std::string name;            // the source name of the array or carried value
  std::string memory;          // "VMEM", "SMEM", "ANY" (HBM, not copied by the BlockSpec)
  std::string note;            // e.g. "tile_k resident", "streamed over tile_k"
  std::vector<int64_t> block;  // the block shape as the kernel sees it (squeezed axes left out)
  ir::ScalarType dtype = ir::ScalarType::kFloat32;
  int64_t buffers = 0;
  int64_t vmem_bytes = 0;
  int64_t smem_bytes = 0;
  int64_t hbm_bytes = 0;
};

// The MXU work of one matrix-product term: its flops over the launch and the shape of one
// product as the kernel runs it (the blocks of the result's rows and columns and of the
// contracted dimension), which decides how well it fills the MXU's tiles.
struct ProductResources {
  int64_t flops = 0;
  int64_t rows = 1;
  int64_t cols = 1;
  int64_t depth = 1;
  ir::ScalarType dtype = ir::ScalarType::kBFloat16;  // the operands'
};

struct LaunchResources {
  // Per launch dimension (Launch::grid order): the block, and the number of blocks.
  std::vector<int64_t> blocks;
  std::vector<int64_t> dim_steps;
  // Per launch dimension: the range its loop covers, as the module's grid counts it (the
  // kExtent leaves of the VMEM formulas).
  std::vector<int64_t> extents;
  // The pallas_call's grid: the names of its axes (tile dimensions) and their steps.
  std::vector<std::string> grid_names;
  std::vector<int64_t> grid;
  int64_t grid_steps = 1;
  std::vector<OperandResources> operands;  // inputs, outputs, scratch, stream buffers
  int64_t vmem_bytes = 0;
  // Of `vmem_bytes`: the body's narrow values (vmem_formula.h, is_narrow_value), and how many.
  int64_t narrow_value_bytes = 0;
  int narrow_values = 0;
  // Of `vmem_bytes`: the working sets of the body's sorts (Launch::sorted_rows), and how many
  // shapes of rows it sorts.
  int64_t sort_bytes = 0;
  int sorted_shapes = 0;
  // Of `vmem_bytes`: the compares of the body's gathers and scatters (launch_one_hots), and
  // how many there are.
  int64_t one_hot_bytes = 0;
  int one_hots = 0;
  // Of `vmem_bytes`: the operands the body's lane reductions hold (launch_reduced_blocks), and
  // how many shapes of them; the values of its full-precision products (launch_precise_products),
  // and how many products (held_blocks.h).
  int64_t reduction_bytes = 0;
  int reduced_shapes = 0;
  int64_t product_bytes = 0;
  int precise_products = 0;
  // Of `vmem_bytes`: the words of the body's random draws (launch_random_draws), and how many.
  int64_t random_bytes = 0;
  int random_draws = 0;
  // Of `vmem_bytes`: the compiler's scratch for moving reductions' results into lanes
  // (lane_moves_vmem), and how many shapes of results the body moves (launch_lane_moves).
  int64_t lane_move_bytes = 0;
  int lane_moves = 0;
  // Of `vmem_bytes`: the loop-invariant values computed once before inner loops and held across
  // them (hoisted_values_vmem, plan_hoists.h), and how many.
  int64_t hoisted_bytes = 0;
  int hoisted_values = 0;
  int64_t smem_bytes = 0;
  int64_t hbm_bytes = 0;
  int64_t flops = 0;
  int64_t transcendentals = 0;
  int64_t divisions = 0;  // of `flops`: run on the EUP (LaunchCost::divisions)
  // The part of `flops` that is matrix products (the MXU's), per product term; the rest is
  // vector work.
  std::vector<ProductResources> products;
  int64_t mxu_flops = 0;
};

// The resources of `launch` under `choices` for the argument shapes `values` was made with.
// An error names what could not be computed (a size the host code computes from a scalar
// argument, a launch whose rank is only known at trace time, ...).
Expected<LaunchResources> account_launch(const ir::Kernel& kernel, const Launch& launch,
                                         const HostValues& values, const LaunchChoices& choices);

// The same for the schedule of `choices.strategies` (schedule.h), which the caller already has.
Expected<LaunchResources> account_launch(const ir::Kernel& kernel, const Launch& launch,
                                         const LaunchSchedule& schedule, const HostValues& values,
                                         const LaunchChoices& choices);

}  // namespace helionc::passes
