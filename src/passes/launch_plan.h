// The scheduled form of a kernel that the backend prints: one Launch (one `pl.pallas_call`) per
// top-level tile loop, with its grid, its operands and how the kernel sees each of them (the
// BlockSpec view), the host values its body captures, and the TPU block-rule facts of every
// tile dimension. Produced by plan_launches (plan_launches.h); the autotuner reads the same
// facts to prune illegal block sizes.
//
// Operand views. The kernel sees each operand through a view of the array that satisfies the
// TPU block rules (pallas-target.md §3): rank-1 arrays become (1, n) with the unit axis
// squeezed, a `None` index becomes a unit axis of the view (so `bias[None, :]` is a (1, n)
// block), and a scalar-indexed second-to-last axis gets a unit axis after it, (m, n) ->
// (m, 1, n), so that the squeezed axis is not one of the last two. The wrapper reshapes the
// array into the view (`bias[None]`, `x[:, None]`) and outputs back.
#pragma once

#include <array>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/nodes.h"
#include "passes/loop_strategy.h"
#include "passes/schedule.h"

namespace helionc::passes {

// Where an axis sits in the kernel's view of an operand: the TPU block rules want a multiple of
// 128 on the last (lane) axis, of 8 on the second-to-last (sublane) axis, anything on leading
// axes, unless the block is the whole dimension.
enum class AxisRole { kLeading, kSublane, kLane };
std::string_view axis_role_name(AxisRole role);  // "leading", "sublane", "lane"

// One axis of an operand's view.
struct ViewAxis {
  enum class Kind {
    kTile,    // the block of tile dimension `tile_dim` of array axis `array_axis`
    kFull,    // all of array axis `array_axis` (`:`)
    kScalar,  // array axis `array_axis` at index `scalar` (squeezed away)
    kUnit,    // an axis of size 1 that the array does not have (from `None`, or for the rules)
    kColumn,  // the last array axis `array_axis` at index `scalar`: the block is a lane-aligned
              // window holding that column (min(128, n) wide; the index map picks window
              // `scalar // width`) and the kernel selects element `scalar % width` of each row
  };
  Kind kind = Kind::kFull;
  int tile_dim = -1;
  int array_axis = -1;
  ir::ExprPtr scalar;     // kScalar, kColumn: a host int or device int (an hl.grid index)
  bool squeezed = false;  // `None` in the block shape: the kernel does not see this axis
  // kFull only: the kernel gathers along this axis with this integer tile tensor (`w[ids, :]`),
  // so the block keeps the whole axis in VMEM (a one-hot compare or matmul in the kernel).
  ir::ExprPtr gather;
  // A row gather `w[ids[tile_b], tile_e]` whose rows may instead be copied from HBM by DMA
  // (plan_gathers.h; which of the two is decided at trace time, from the sizes): the input
  // (Launch::inputs) holding `ids` whole in SMEM, else -1.
  int dma_ids = -1;
  // kFull only, outputs (and their aliased inputs): the stores pick elements of this axis with
  // scalars of their own (`out[i] = v`, `out[0, tile] = a; out[1, tile] = b`; plan_picks.h),
  // so the block holds the whole axis and each access selects its elements in the kernel.
  bool picked = false;
  AxisRole role = AxisRole::kLeading;
};

// One array the kernel reads or writes, with one index pattern.
struct Operand {
  int binding = -1;       // the host tensor binding
  ir::Index index;        // the pattern, as first written
  SourceRange range;      // its first use
  bool variadic = false;  // indexed by an `hl.tile(x.size())` tile: the view is built at trace time
  std::vector<ViewAxis> view;  // static views only
  bool reshaped = false;       // the view has unit axes the array lacks (the wrapper reshapes)
  bool read = false;           // loaded in the body
  bool written = false;        // stored in the body (outputs only)
  // Read only as scalars (every index of every read is a scalar): the whole array is passed in
  // SMEM (`memory_space=pltpu.SMEM`, no view) and the kernel reads `ref[i, j]`.
  bool smem = false;

  // The view's rank as the kernel sees it (squeezed axes left out); static views only.
  int kernel_rank() const;
};

// An input of the pallas_call.
struct Input {
  enum class Kind {
    kRead,           // an array the body reads
    kAliasedRead,    // the old contents of output `output`, read before the body overwrites them
    kAliasedUnread,  // the old contents of output `output`, kept where the body does not write
                     // (whole array in place, pl.ANY: never copied into VMEM)
  };
  Kind kind = Kind::kRead;
  Operand operand;
  int output = -1;  // the aliased output (aliased kinds)
  // An SMEM copy of the indices of the row gather from input `gather_ids_of` (ViewAxis::dma_ids),
  // passed only when that gather copies its rows by DMA (else a one-element placeholder).
  int gather_ids_of = -1;
};

struct Output {
  Operand operand;
  int aliased_input = -1;  // index into Launch::inputs, or -1
  // Why the output is aliased (for comments and the plan dump): "read", "initialised",
  // "partly written", "masked", "" when not aliased.
  std::string alias_reason;
  // View axes whose tile runs over only part of the array axis (`hl.tile(a, b)`, or an end
  // that may be short of the dimension) while the array holds values that must survive: the
  // store keeps the old value (read through the aliased input) outside the loop's range.
  std::vector<int> masked_axes;
  // The launch's own grid dimensions (indices into Launch::grid) along which consecutive steps
  // update the same block, which the body reads before storing it (`hl.atomic_add(out,
  // [tile_m, tile_n], v)` in a loop over k, m, n): they run innermost, in order, and the body
  // reads the block from the output ref, copied in from the aliased input at the first of them.
  std::vector<int> revisiting_dims;
  // A static loop of the body reads the block and then stores it (`for k in range(3):
  // out[tile] += ...`), or a store is under an `if` on a device value (it may not run): every
  // read goes to the output ref, which the body first fills from the aliased input (at every
  // step; with revisiting_dims, at the first of them).
  bool copied_in_at_entry = false;
  // A masked axis is tiled by an inner loop whose bounds are read from tensors: the blocks of
  // consecutive outer steps overlap (a segment's last block is the next one's first), so the
  // store keeps what the block holds already (the output's own ref, resident across those
  // steps) outside the loop's range, and the launch's axes run in order ("arbitrary").
  bool masked_in_place = false;
  // The stores write only part of the block: some view axis is picked (ViewAxis::picked), a
  // store scatters (ViewAxis::gather), or the stores' slices leave part of a sliced axis. So the
  // block holds the array's old contents from the first visit on (copied in from the aliased
  // input unless the array is fresh), the steps that share it keep it resident
  // (revisiting_dims), and the body reads it from the output's ref.
  bool copies_in = false;
  // Stored by a rank-polymorphic loop over another array's shape (`for tile in
  // hl.tile(x.size()): y[tile] = ...`): Helion specializes shapes, and the kernels that do this
  // pass arrays of one shape, so the module checks while JAX traces that the output has the
  // loop's shape (which the loop then covers) instead of masking an unknown rank.
  bool checked_loop_shape = false;
};

// Which ref a load in the body reads.
struct RefUse {
  bool output = false;  // Launch::outputs[index] (else Launch::inputs[index])
  int index = -1;
};

// A host value that the kernel body uses; bound as a keyword-only argument of the kernel
// function with functools.partial, so it is a static Python value while the kernel is traced.
struct Capture {
  enum class Kind {
    kValue,        // the value of `binding` (a Python int/float/bool or a dtype)
    kDtype,        // `binding.dtype` of a tensor the kernel does not take as an operand
    kShape,        // `binding.shape` of a tensor (sizes used in the body)
    kBlock,        // the block size of tile dimension `tile_dim` (for masks)
    kGatherByDma,  // whether the row gather from input `input` copies its rows by DMA (a bool
                   // decided at trace time; ViewAxis::dma_ids)
  };
  Kind kind = Kind::kValue;
  int binding = -1;
  int tile_dim = -1;  // kBlock
  int input = -1;     // kGatherByDma
};

// One use of a tile dimension by an operand axis (the legality facts).
struct TileUse {
  bool output = false;  // an output (else an input)
  int operand = -1;     // index into Launch::outputs / Launch::inputs
  int axis = -1;        // position in the operand's view
  AxisRole role = AxisRole::kLeading;
};

// A tile dimension of a launch: a grid axis of the pallas_call for the dimensions of the
// launch's own loop; for a dimension of an inner loop (`inner_loop` >= 0) how it runs depends on
// the loop's strategy (a grid axis only under LoopStrategy::kGrid). The block-rule facts are
// the same either way.
struct GridDim {
  int tile_dim = -1;
  int inner_loop = -1;  // index into Launch::inner_loops, or -1 for the launch's own loop
  std::vector<TileUse> uses;
  // The strictest role among the uses (kLeading when unused); decides the block multiple.
  AxisRole role = AxisRole::kLeading;
  // A lane dimension with no tiled sublane dimension in the launch (a 1-D tile): its default
  // block is longer.
  bool flat = false;
  // The loop may not run over exactly the array axes it tiles (a start other than 0, or an end
  // not provably the dimension): blocks are numbered from the array's start (the grid starts
  // at block `begin // block`), and the block size is made legal for `size_binding`'s axis
  // `size_axis` (the first axis the dimension tiles), not for the loop's extent.
  bool partial = false;
  int size_binding = -1;
  int size_axis = -1;
  // An inner loop paired with another (ir::TileDim::paired_with): its blocks start at its begin,
  // so a resident axis holds one block more than whole blocks of the array (its last window
  // may reach a block past them) and a streamed input is padded by one block more on the host.
  bool from_begin = false;
};

// One matrix product's shape, for the cost model's MXU tile efficiency: the result's rows
// (second-to-last dimension; kUnit for a rank-1 result) and columns (last), the contracted
// dimension, and the operands' dtype: `dtype` when the IR knows it, else that of the tensor
// argument `dtype_binding` the left operand is loaded from (known for concrete shapes).
struct ProductShape {
  ir::Dim rows, cols, contracted;
  std::optional<ir::ScalarType> dtype;
  int dtype_binding = -1;

  bool operator==(const ProductShape&) const = default;
};

// Work per launch as sums of `count` x (number of elements of a value of shape `elements`).
// The terms of LaunchCost::products carry their product's shape.
struct CostTerm {
  int64_t count = 0;
  std::vector<ir::Dim> elements;
  std::optional<ProductShape> product;
  // The innermost inner loop (Launch::inner_loops) the work runs in, or -1: its steps, and
  // those of the loops around it, repeat the work along the dimensions it is not tiled by.
  int inner_loop = -1;
};

struct LaunchCost {
  std::vector<CostTerm> flops;
  std::vector<CostTerm> transcendentals;
  // The matrix products' flops again (the MXU's part of `flops`; the rest is vector work),
  // one term per product shape.
  std::vector<CostTerm> products;
  // The true divisions of tiles, also counted in `flops` (as pl.CostEstimate counts them): a
  // TPU divides with the EUP's reciprocal, so the cost model counts them there (Mosaic lowers
  // `/` to arith.divf, which the kernel profile counts as EUP work too).
  std::vector<CostTerm> divisions;
};

// Blocks of an inner loop whose steps leave every carried value unchanged: those whose first
// element lies past the last element the mask keeps, `inner.begin > outer.end - 1 + offset`
// (plan_skips.h). Every strategy skips them: a shorter loop, or `pl.when` on the grid.
struct StepSkip {
  int outer_dim = -1;  // a tile dimension of the launch's own loop (the queries)
  int inner_dim = -1;  // the inner loop's tile dimension (the keys)
  int64_t offset = 0;  // the mask keeps inner.index <= outer.index + offset
};

// A tile loop nested in a launch's body, in order of appearance (the order of
// `pallas_loop_type` entries).
struct InnerLoop {
  const ir::TileLoop* loop = nullptr;  // owned by the IR, which outlives the plan
  int parent = -1;                     // the enclosing inner loop, or -1
  // Directly in the launch's body (not in another inner loop or an `if`).
  bool top_level = false;
  // Inputs (indices into Launch::inputs) tiled by the loop's dimension: what `emit_pipeline`
  // and `fori_loop` stream from HBM (`pl.ANY`) into VMEM buffers.
  std::vector<int> streamed_inputs;
  std::optional<StepSkip> skip;
  // Why each strategy does not apply to the loop, by LoopStrategy; "" where it applies.
  std::array<std::string, kLoopStrategyCount> not_applicable;

  const ir::TileLoop& tile_loop() const { return *loop; }
  const std::string& reason_against(LoopStrategy s) const {
    return not_applicable[static_cast<size_t>(s)];
  }
};

// A value the kernel body computes whose last axis is a few elements wide (a pair or a group of
// a view, one element of it, a kept reduced axis) in a value of rank 3 or more. Such a value
// fills a whole register tile (8 rows x 128 lanes) per row of its last two axes, so the TPU
// compiler keeps it in VMEM rather than in registers (vmem_formula.h, is_narrow_value).
struct NarrowValue {
  std::vector<ir::Dim> dims;
  std::optional<ir::ScalarType> dtype;  // nullopt: known only while JAX traces
  int count = 1;                        // the expressions computing a value of this shape
};

// The rows a sort in the body orders (`torch.sort`, `topk`, `argsort`): the module's loops
// over their axis (templates/helper_sort_last.py.tmpl) keep a dozen 32-bit copies of them
// live (keys, positions, NaN flags, ranks, values, indices and the temporaries of a round), which
// the TPU compiler spills to VMEM past its registers: measured with libtpu (tpu7x and v5e,
// samples/row_sorts.py and row_topk.py), about 11 copies beyond 64 registers. The loops of
// successive sorts run one after another and reuse those spills, so each shape of sorted rows
// counts once per launch, at kSortCopies (vmem_formula.h, sorts_vmem).
inline constexpr int kSortCopies = 12;

// A gather or scatter through a tile of indices along an axis the block holds whole
// (`w[ids[tile_b], :]`, `x[tile.index + j]`, `out[tile.index + h] = v`): the module compares the
// indices with every position of the axis (templates/helper_gather.py.tmpl, helper_scatter), so
// it computes values of (index count x axis length) elements. Measured with libtpu (tpu7x,
// samples/two_halves.py, jagged_gather_sum.py and standalone gathers), the compiler holds 0.1 to
// 0.7 of one such 32-bit value per gather in VMEM and about 1.4 per scatter; the accounting
// counts kGatherCopies and kScatterCopies of them (vmem_formula.h, one_hots_vmem), an upper
// bound, once per operand axis gathered or scattered along (ViewAxis::gather).
inline constexpr int kGatherCopies = 2;
inline constexpr int kScatterCopies = 3;  // and, unless it adds, an (index count)^2 matrix
// A row gather that may copy its rows by DMA (ViewAxis::dma_ids) compares indices only from
// tables of at most this many rows: the module's `_GATHER_ONE_HOT_ROWS`, which decides while
// JAX traces (templates/helper_gather.py.tmpl; larger tables are copied from, row by row;
// tests/unit/backend/helper_calls_test.cpp checks that the two agree).
inline constexpr int64_t kGatherOneHotRows = 2048;

struct Launch {
  int index = 0;              // k-th launch of the kernel
  ir::StmtPtr loop;           // the ir::TileLoop
  std::vector<GridDim> grid;  // the loop's tile dimensions, in grid order, then those of
                              // the inner loops in order of appearance
  std::vector<InnerLoop> inner_loops;
  bool variadic = false;          // one `hl.tile(x.size())` dimension: rank known at trace time
  std::vector<Input> inputs;      // in kernel argument order
  std::vector<Output> outputs;    // in kernel argument order, after the inputs
  std::vector<Capture> captures;  // in order of first use
  // hl.grid loop variables used as values in the body (`pl.program_id(axis)`): binding -> axis.
  std::map<int, int> program_ids;
  std::map<const ir::Load*, RefUse> loads;
  std::map<const ir::Store*, int> stores;  // -> index into outputs
  LaunchCost cost;
  // The body's narrow values, one per expression that computes one (vmem_formula.h).
  std::vector<NarrowValue> narrow_values;
  // One per shape of rows the body sorts: their loops' working set, as 32-bit values of that
  // shape (rank 2 at least) and kSortCopies.
  std::vector<NarrowValue> sorted_rows;
  // One schedule per combination of applicable inner-loop strategies, the default first
  // (filled by the schedule pass, schedule.h).
  std::vector<LaunchSchedule> schedules;

  const ir::TileLoop& tile_loop() const { return *loop->as<ir::TileLoop>(); }
};

struct KernelPlan {
  int kernel = -1;  // index into ir::Module::kernels
  std::vector<Launch> launches;
  // Launch of each top-level tile loop statement.
  std::map<const ir::Stmt*, int> launch_of;
};

// The launch's own grid dimensions that some output's block is revisited along
// (Output::revisiting_dims), ascending.
std::vector<int> revisited_dims(const Launch& launch);

// The order the launch's own dimensions run in when no config orders them: as written, except
// that revisited dimensions run innermost (a block's updates must follow one another). Indices
// into Launch::grid, outermost first.
std::vector<int64_t> default_grid_order(const Launch& launch);

// Whether a grid order (the launch's own dimensions, outermost first) runs every revisited
// dimension inside all the others, as the updates of one block must follow one another.
bool order_keeps_revisited_last(const Launch& launch, const std::vector<int64_t>& order);

// The position of `launch`'s first inner loop among the kernel's (configs list one
// `pallas_loop_type` per inner loop of the whole kernel, in order of appearance).
size_t first_inner_loop(const KernelPlan& plan, int launch);

// Whether a config's `loop_orders` can order `launch`'s grid: its own loop tiles several
// dimensions (and its rank is known before tracing).
bool orders_grid(const Launch& launch);

// Which `loop_orders` entry orders `launch`'s grid (configs list one permutation per such
// launch, in order of appearance), or -1 when none does.
int loop_order_entry(const KernelPlan& plan, int launch);

// A readable dump of a plan (`--emit plan`, debugging, unit tests).
std::string print_plan(const ir::Kernel& kernel, const KernelPlan& plan);

}  // namespace helionc::passes
