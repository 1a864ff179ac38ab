// A launch's VMEM bytes as a formula over the call's sizes (issue 10). The resource accounting
// (launch_resources.cpp: `--emit report`, the legality check, the search) builds these trees and
// evaluates them for concrete shapes; the module prints the same trees as Python, so that while
// JAX traces it checks the chosen strategies against the target's VMEM with the same figures
// and falls back when they do not fit (vmem_fallback.h). One tree, evaluated here and printed
// there, keeps the two from drifting.
//
// The leaves are what the module knows while tracing and the accounting knows from the shapes:
// a launch dimension's block, an array's axis size and item size, an inner loop's buffer count.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "passes/launch_plan.h"
#include "passes/schedule.h"
#include "support/expected.h"

namespace helionc::passes {

struct SizeExpr {
  enum class Kind {
    kConst,     // `value`
    kBlock,     // the block of launch dimension `index` (a Launch::grid position)
    kAxisSize,  // axis `axis` of the array bound to `binding`
    kItemSize,  // the bytes of one element of the array bound to `binding`, in VMEM (float16
                // as float32: ir::device_dtype)
    kBuffers,   // the VMEM buffers of the launch's inner loop `index` (pallas_load_buffer_count)
    kAdd,       // the sum of `args`
    kMul,       // the product of `args`
    kMin,       // the smaller of `args[0]` and `args[1]`
    kRoundUp,   // `args[0]` rounded up to a multiple of `args[1]` (cdiv(a, b) * b)
    kCeilDiv,   // cdiv(`args[0]`, `args[1]`)
    kExtent,    // the size of launch dimension `index`: the range its loop covers
    kComputed,  // the host int Kernel::computed_sizes[`index`] (`head_dim // 2`)
    kTiled,     // the VMEM bytes of one buffer of shape `args` (tiled_vmem_bytes) whose elements
                // are those of the array bound to `binding`, or of `value` bytes when it is -1
    kIfAtMost,  // `args[0]` when `args[1]` is at most `value`, else 0
  };
  Kind kind = Kind::kConst;
  int64_t value = 0;
  int index = -1;
  int binding = -1;
  int axis = -1;
  std::vector<SizeExpr> args;

  static SizeExpr constant(int64_t value);
  static SizeExpr block(int launch_dim);
  static SizeExpr axis_size(int binding, int axis);
  static SizeExpr item_size(int binding);
  static SizeExpr buffers(int inner_loop);
  static SizeExpr extent(int launch_dim);
  static SizeExpr computed(int size);
  // One buffer of `shape` in VMEM, of the elements of array `binding` (`item_bytes` each when
  // `binding` is -1).
  static SizeExpr tiled(std::vector<SizeExpr> shape, int binding, int64_t item_bytes = 0);
  // Sums and products fold constants and drop neutral terms, so printed formulas stay short.
  static SizeExpr sum(std::vector<SizeExpr> terms);
  static SizeExpr product(std::vector<SizeExpr> factors);
  static SizeExpr min(SizeExpr a, SizeExpr b);
  static SizeExpr round_up(SizeExpr value, SizeExpr multiple);
  static SizeExpr ceil_div(SizeExpr value, SizeExpr divisor);  // folds two constants
  // `then` when `size` is at most `bound`, else 0 (folds a constant `size`).
  static SizeExpr if_at_most(SizeExpr then, SizeExpr size, int64_t bound);

  bool is_constant(int64_t v) const { return kind == Kind::kConst && value == v; }
  bool operator==(const SizeExpr& other) const = default;
};

// The values of the leaves for one call. A leaf may throw to say its value is unknown; the
// exception passes through evaluate_size.
class SizeLeaves {
 public:
  virtual ~SizeLeaves() = default;
  virtual int64_t block(int launch_dim) const = 0;
  virtual int64_t axis_size(int binding, int axis) const = 0;
  // The bytes of one element in VMEM (a bool takes 32 bits there).
  virtual int64_t item_size(int binding) const = 0;
  virtual int64_t buffers(int inner_loop) const = 0;
  virtual int64_t extent(int launch_dim) const = 0;
  virtual int64_t computed(int size) const = 0;
};

// The bytes of one VMEM buffer of `shape` (elements of `item_bytes`), as the TPU compiler lays
// it out (measured with libtpu for windows and scratch of every generation, tests/bench/
// vmem_accuracy.py): the last axis in lanes of 128; the one before in rows of 8, a shorter one
// in the next power of two of rows, but at least the rows one 32-bit word packs (2 for 16-bit
// and 4 for 8-bit elements); the leading axes multiply; the buffer takes whole KiB. A rank-1
// shape is one row. The module's `_vmem_bytes` (templates/helper_vmem_bytes.py.tmpl) is the
// same rule.
int64_t tiled_vmem_bytes(const std::vector<int64_t>& shape, int64_t item_bytes);

// Whether a value of `type` may be narrow (NarrowValue): a tile tensor of rank 3 or more whose
// last axis is a unit or a written size of at most 16 elements, or a size known only from the
// call (an array's axis, a slice of one, a computed size), which counts when the call makes it
// at most 16 (a condition in the formula). Measured with libtpu (tpu7x and v5e,
// the samples that view pairs and groups): the compiler allocates VMEM for such values beyond
// the blocks, up to 65 MB for a launch whose blocks take 0.5 MB, where values with full lanes
// stay in registers or are read again from their blocks. Each expression computing one counts
// once, at its register tiles (narrow_values_vmem). The launch's figure is then 1.0-2.0 times
// the compiler's on those samples' calls of megabytes (tests/bench/vmem_accuracy.py): the
// compiler reuses some of the printed formulation's copies, never needs more.
bool is_narrow_value(const ir::Type& type);

// The bytes of one element of `dtype` in VMEM: a bool takes a 32-bit word, float16 is held as
// float32 (ir::device_dtype).
int64_t vmem_item_bytes(ir::ScalarType dtype);

// The formula's value; nullopt when a step overflows 64 bits.
std::optional<int64_t> evaluate_size(const SizeExpr& expr, const SizeLeaves& leaves);

// The extent of each axis of an operand's block as the kernel sees it (squeezed axes left out):
// a block, an `unroll` axis resident whole (padded to whole blocks), a whole axis, a column's
// lane window (at most 128). Errors name what has no static formula (an any-rank operand).
Expected<std::vector<SizeExpr>> block_extents(const Launch& launch, const Operand& operand,
                                              const OperandSchedule& placed);

// The buffers of an operand's block: for a BlockSpec block two (Pallas copies the next block
// while the kernel works on this one), but one when its block never changes over the grid (the
// block index depends on no grid axis, or those it depends on take one step: the compiler
// allocates a single buffer then); for an input a loop streams, the loop's buffer count.
Expected<SizeExpr> operand_buffers(const ir::Kernel& kernel, const Launch& launch,
                                   const OperandSchedule& placed);

// The VMEM bytes an operand takes: its buffers of the block in the tiled layout. SMEM and
// `pl.ANY` operands take none.
Expected<SizeExpr> operand_vmem(const ir::Kernel& kernel, const Launch& launch,
                                const Operand& operand, const OperandSchedule& placed);

// The VMEM bytes of one scratch buffer: a carried value's (`grid`, `emit_pipeline`), else 0
// (SMEM step counters, semaphores; stream slots are counted with their input, a row gather's
// rows are sized while JAX traces).
Expected<SizeExpr> scratch_vmem(const ir::Kernel& kernel, const Launch& launch,
                                const ScratchBuffer& buffer);

// The VMEM bytes of the body's narrow values (is_narrow_value) at their register tiles: 4 KiB
// per tile of 8 rows (16 for 16-bit, 32 for 8-bit elements; a dtype known only while JAX traces
// counts as 32-bit) by the 128 lanes their last axis fits in, times their leading axes and their
// count. A part of a block (`tile.block_size // 2`) counts its groups. Values whose last axis the
// call sizes count under one condition: the shortest such axis is at most 16 elements. Errors
// name what has no static formula.
Expected<SizeExpr> narrow_values_vmem(const Launch& launch);

// The VMEM bytes of the working sets of the body's sorts (Launch::sorted_rows): kSortCopies
// 32-bit copies of each shape of sorted rows at register tiles.
Expected<SizeExpr> sorts_vmem(const Launch& launch);

// A gather or scatter through a tile of indices: an input's axis with ViewAxis::gather, an
// index item of a store that is a tile of indices, or a store at a tile's indices along an
// output's axis the block holds whole (ViewAxis::picked: its stores also write it otherwise;
// the module scatters by a one-hot there too).
struct OneHot {
  std::vector<ir::Dim> indices;  // the index tile tensor's dims
  int binding = -1;              // the array
  int array_axis = -1;           // the axis the indices pick along
  bool scatter = false;
  bool adds = false;    // a scatter that adds (`out[ids] += v`): no compare of later stores
  bool by_dma = false;  // a row gather that may copy its rows by DMA (ViewAxis::dma_ids)
  bool operator==(const OneHot& other) const = default;
};
std::vector<OneHot> launch_one_hots(const Launch& launch);

// The VMEM bytes of the body's gathers and scatters through tiles of indices (launch_one_hots):
// kGatherCopies or kScatterCopies 32-bit values of (index count x axis length) at register
// tiles each, and a scatter's (index count)^2 compare of later stores; a row gather that may
// copy by DMA counts only for tables of at most kGatherOneHotRows rows.
Expected<SizeExpr> one_hots_vmem(const Launch& launch);

// The VMEM bytes of the operands the body's lane reductions hold (launch_reduced_blocks,
// held_blocks.h): their half-copies of 32-bit register tiles (8 rows by 128 lanes, 2 KiB a half).
Expected<SizeExpr> reductions_vmem(const Launch& launch);

// The VMEM bytes of the body's full-precision products (launch_precise_products, held_blocks.h):
// their operands' and results' half-copies of 32-bit register tiles.
Expected<SizeExpr> products_vmem(const Launch& launch);

// The VMEM bytes of the words of the body's random draws (launch_random_draws, held_blocks.h)
// at 32-bit register tiles.
Expected<SizeExpr> random_draws_vmem(const Launch& launch);

// The scoped VMEM the compiler takes to move the body's lane reductions' results into lanes
// (launch_lane_moves, held_blocks.h): `scratch_bytes` (the target's lane_move_scratch_bytes)
// once, when one of the moves has 16-bit elements or more than kLaneMoveRows values, or when
// the body reads a row of values from VMEM (an input whose block has one axis, a carried value
// of one axis in a scratch buffer under `schedule`), which the moved values meet in lanes; 0
// without moves or where the target takes none.
SizeExpr lane_moves_vmem(const ir::Kernel& kernel, const Launch& launch,
                         const LaunchSchedule& schedule, int64_t scratch_bytes);

// The VMEM bytes of the values computed once before an inner loop and held across all its steps
// (LaunchSchedule::hoisted, plan_hoists.h): one buffer of each block value's shape in the tiled
// layout (an upper bound: the compiler may keep a small one in registers). Scalars take none.
Expected<SizeExpr> hoisted_values_vmem(const ir::Kernel& kernel, const Launch& launch,
                                       const LaunchSchedule& schedule);

// The VMEM bytes of the whole launch under `schedule`: every operand's and scratch buffer's,
// the body's narrow values, its sorts' working sets, its gathers' and scatters' compares, the
// values its reductions, full-precision products and random draws hold, and the compiler's
// scratch for moving reductions' results into lanes (`lane_move_scratch_bytes`, the target's),
// and the loop-invariant values held across inner loops.
Expected<SizeExpr> launch_vmem(const ir::Kernel& kernel, const Launch& launch,
                               const LaunchSchedule& schedule, int64_t lane_move_scratch_bytes);

}  // namespace helionc::passes
