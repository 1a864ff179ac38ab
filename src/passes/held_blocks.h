// Block-sized values of the body that the TPU compiler holds in VMEM besides the blocks
// (vmem_formula.h counts their bytes). Measured with libtpu on hand-written Pallas kernels that
// vary one thing at a time (tpu7x and v5e; docs/guide/tuning.md has the figures): a kernel that
// only loads, computes elementwise and stores a block, or reduces a loaded value once along its
// lanes, takes no VMEM beyond its windows at any block size. Two kinds of work do:
//
// - A reduction along the last (lane) axis whose operand's values the body needs again after it
//   (`x - x.amax(-1)`, `x * rsqrt(mean(x * x))`, a max and a min of one row), and every
//   argmax, argmin, softmax and log_softmax, which do so themselves: the compiler holds the
//   operand, at 32 bits, while the reduction runs; 0.4 to 1.1 of one 32-bit block copy for a
//   value used again, 0.9 to 1.5 with an argmax (blocks of 256 to 1024 rows, 300 to 2048 lanes).
// - A scan or an in-order reduction along the lanes (`hl.associative_scan`, `hl.reduce`,
//   `torch.cumsum`): the module's log2(n) steps of rolls and selects hold up to 1.9 32-bit copies
//   of a single input and 6.3 of a pair (blocks of 64 to 512 rows by 256 to 1024 lanes).
// - A matrix product at full precision (float32 or float16 operands, or two float dtypes that
//   promote to float32: `_dot` asks for Precision.HIGHEST): the MXU multiplies bfloat16, so the
//   compiler splits each operand into bfloat16 parts and keeps them and the float32 result: up
//   to 1.5 times the operands (their contracted axis padded to 128) and once the result, at 32
//   bits. Products of bfloat16 or 8-bit operands at default precision take none.
// - Random draws (`torch.rand`, `randn`, `hl.randint`): Philox computed from counters built of
//   the tiles' 1-D indices (`rows[:, None] * n + columns`) makes the compiler hold the rounds'
//   words whole, 7 to 8 32-bit copies of a draw (9.7 for randn's two words, 11 for three draws
//   of one shape). A shape of two or more axes drawn once has its counters printed from iotas of
//   its whole block (ExprPrinter::draw_counters) and holds none of them (samples/dropout.py:
//   from 1-D indices 5.3 copies at 64x256 and 7.0 at 128x384 on tpu7x, 5.7 and 8.0 on v5e; from
//   iotas nothing on float32 blocks, 0.15 of a copy on bfloat16 ones). Draws of a shape drawn
//   several times share their counters (the same positions), and hold as much from iotas as from
//   1-D indices or more (two uniform draws and a normal one of 32x256: 8.1 copies from 1-D
//   indices, 8.8 from iotas on tpu7x; 8.5 and 9.3 on v5e), so they keep the 1-D indices. A rank-1
//   draw holds 1.6 to 3 copies.
#pragma once

#include <vector>

#include "passes/launch_plan.h"

namespace helionc::passes {

// A value held at 32 bits: its dims (rank 2 or more, unit axes in front for a shorter one) and
// the half-copies counted.
struct HeldBlock {
  std::vector<ir::Dim> dims;
  int halves = 0;
  // Its rows are a product's contracted axis, which the compiler pads to whole 128-row tiles.
  bool contracted_rows = false;
  // A product whose operands' dtypes are known only while JAX traces: it counts when the
  // elements of one of these arrays (those its operands are loaded from) take 4 bytes in VMEM
  // (float32, float16 as float32). Empty: it counts.
  std::vector<int> if_wide = {};
  bool operator==(const HeldBlock& other) const = default;
};

// Half-copies of a lane reduction's operand (its own shape) held while it runs: one and a half
// copies for a value the body uses again and for softmax and log_softmax, two for argmax and
// argmin (which compare the operand with its maximum and positions with the winners).
inline constexpr int kReusedReductionHalves = 3;
inline constexpr int kArgReductionHalves = 4;
// Half-copies of the input shape held by a scan or in-order reduction along the lanes: for its
// first input, and for each further one.
inline constexpr int kScanHalves = 4;
inline constexpr int kFurtherScanInputHalves = 9;
// Half-copies of a full-precision product's operands (their bfloat16 parts) and of its result.
inline constexpr int kPreciseOperandHalves = 3;
inline constexpr int kPreciseResultHalves = 2;

// Half-copies of a random draw's shape held while Philox runs, for a shape drawn several times:
// the first draw of the shape, a first one with randn's two words, and each further draw of that
// shape. A rank-1 draw (its counters need no broadcast) holds fewer, 1.6 to 3 copies at a
// register tile per 128 elements (samples/random_bins.py): its first draw counts
// kFlatDrawHalves. A shape of two or more axes drawn once counts kFullIotaDrawHalves.
inline constexpr int kDrawHalves = 18;
inline constexpr int kNormalDrawHalves = 20;
inline constexpr int kFurtherDrawHalves = 4;
inline constexpr int kFlatDrawHalves = 8;
// Half-copies of a shape of two or more axes drawn once (draws_from_full_iotas). The draw itself
// holds nothing (a float32 draw of 128x384 or 32x256 blocks: the compiler's figure is its
// windows', tpu7x and v5e); half a copy covers what the 1-D indices' copies did beside it:
// samples/dropout.py on bfloat16 128x384 blocks holds 28 KiB beyond its windows on tpu7x, 16 on
// v5e (0.15 of a copy of the draw), float32 blocks none.
inline constexpr int kFullIotaDrawHalves = 1;

// Whether `call`'s result has as last axis its operand's second-to-last: an axis Mosaic lays
// out along sublanes, which the module moves into lanes where the result is stored or combined
// as a row of values (`_lanes`, helper_lanes.py.tmpl; TPU v4 cannot move it itself). A reduction
// along the last axis, and a squeeze or reshape that drops a last axis of size 1, of a tile of
// two or more axes.
bool lands_on_sublanes(const ir::Call& call);

// A value the body moves from sublanes into lanes (lands_on_sublanes). The v5 compilers take a
// scoped scratch for it, once per kernel (TargetInfo::lane_move_scratch_bytes, 36 KiB), when
// the moved values span more than kLaneMoveRows lanes at 32 bits or are 16-bit (libtpu on
// hand-written kernels: `x.sum(-1)` stored from float32 blocks of 128 rows and fewer takes
// none, of 136 to 512 rows 36 KiB, of bfloat16 blocks of 9 to 512 rows 36 KiB; v6e and v7x take
// none), and at any length when the body reads a row of values from VMEM that the moved values
// meet (lane_moves_vmem). Rows of values that meet a block take the same scratch at any length
// (held_blocks.cpp, rows_meeting_blocks: 16-bit rows broadcast against a block, float rows made
// columns).
struct LaneMove {
  ir::Dim rows;  // the operand's second-to-last axis: the moved values' count
  // Elements known to take under 32 bits in VMEM: it counts at any length.
  bool narrow = false;
  // Otherwise, the arrays its operand is loaded from when its dtype is known only while JAX
  // traces: it counts at any length when one of them has elements of under 32 bits.
  std::vector<int> if_narrow = {};
  // Whether it counts past kLaneMoveRows values at 32 bits (a lane reduction's result); a row of
  // values that meets a block counts only when narrow.
  bool by_rows = true;
  bool operator==(const LaneMove& other) const = default;
};
inline constexpr int64_t kLaneMoveRows = 128;
std::vector<LaneMove> launch_lane_moves(const Launch& launch);

// The launch's random draws: one per shape drawn, with its half-copies, and how many draws.
struct RandomDraws {
  std::vector<HeldBlock> held;
  int draws = 0;
};
RandomDraws launch_random_draws(const Launch& launch);

// Whether the counters of a random draw of `dims` are computed from iotas of its whole block
// shape (ExprPrinter::draw_counters): two or more axes, and no other draw of the launch has that
// shape (draws of one shape share their counters, which full-shape iotas do not help).
bool draws_from_full_iotas(const Launch& launch, const std::vector<ir::Dim>& dims);

// The operands held by the launch's lane reductions and scans: one per shape of operand, at the
// most half-copies any of them of that shape needs (the compiler reuses the space of one reduction
// for the next).
std::vector<HeldBlock> launch_reduced_blocks(const Launch& launch);

// The values held by the launch's full-precision products: per distinct product, its lhs and
// rhs (kPreciseOperandHalves) and its result (kPreciseResultHalves), in that order.
std::vector<HeldBlock> launch_precise_products(const Launch& launch);

// How many distinct products launch_precise_products counts (some only for wide dtypes).
int precise_product_count(const Launch& launch);

}  // namespace helionc::passes
