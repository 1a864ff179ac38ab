// The typed tile IR. Nodes are immutable after construction (build them with make()), shared
// through ExprPtr/StmtPtr, and every node keeps the source range it came from so that a late
// error still points at the user's code. Node kinds are listed once, in node_kinds.def.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/types.h"
#include "support/source.h"

namespace helionc::ir {

enum class ExprKind {
#define HELIONC_EXPR(Name) k##Name,
#include "ir/node_kinds.def"
};

enum class StmtKind {
#define HELIONC_STMT(Name) k##Name,
#include "ir/node_kinds.def"
};

// The elementwise operations (ops/operations.def, the ops library's table), then the other
// intrinsics (intrinsics.def).
enum class Intrinsic {
#define HELIONC_OP(Enum, ...) Enum,
#include "ops/operations.def"
#define HELIONC_INTRINSIC(Enum, name, arity, where, basis, flops, transcendentals, divisions) Enum,
#include "ir/intrinsics.def"
};
std::string_view intrinsic_name(Intrinsic op);
int intrinsic_arity(Intrinsic op);  // -1: variadic

// Where an intrinsic may appear (intrinsics.def's `where` column).
enum class IntrinsicPlace { kDevice, kHost, kBoth };
IntrinsicPlace intrinsic_place(Intrinsic op);

// What an intrinsic costs (intrinsics.def's cost columns): `flops` and `transcendentals` per
// element of `basis`.
struct IntrinsicCost {
  enum class Basis { kNone, kResult, kOperand, kProduct };
  Basis basis = Basis::kNone;
  int flops = 0;
  int transcendentals = 0;
  int divisions = 0;  // of `flops`: run on the EUP on a TPU
};
IntrinsicCost intrinsic_cost(Intrinsic op);
struct Expr;
// The value of an integer literal (an axis, a dimension number), or `otherwise`.
int int_literal(const Expr& expr, int otherwise);
// Whether `expr` is a number literal (integer or float) equal to `value`.
bool is_number(const Expr& expr, double value);

// Reductions and softmax/log_softmax: ops whose second argument is the axis they work along
// (where padding of a partial block must be masked out).
bool reduces_along_axis(Intrinsic op);

struct Expr {
  Expr(ExprKind kind, Type type, SourceRange range)
      : kind(kind), type(std::move(type)), range(range) {}
  virtual ~Expr() = default;
  const ExprKind kind;
  const Type type;
  const SourceRange range;

  template <typename T>
  const T* as() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }
};
using ExprPtr = std::shared_ptr<const Expr>;

struct Stmt {
  Stmt(StmtKind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Stmt() = default;
  const StmtKind kind;
  const SourceRange range;

  template <typename T>
  const T* as() const {
    return kind == T::kKind ? static_cast<const T*>(this) : nullptr;
  }
};
using StmtPtr = std::shared_ptr<const Stmt>;
using Block = std::vector<StmtPtr>;

// ---- Expressions ------------------------------------------------------------------------

struct IntImm final : Expr {
  static constexpr ExprKind kKind = ExprKind::kIntImm;
  static ExprPtr make(int64_t value, SourceRange range);
  IntImm(int64_t value, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), value(value) {}
  const int64_t value;
};

struct FloatImm final : Expr {
  static constexpr ExprKind kKind = ExprKind::kFloatImm;
  // `spelling` is the Python literal to print ("1e-6", "float('-inf')").
  static ExprPtr make(double value, std::string spelling, SourceRange range);
  FloatImm(double value, std::string spelling, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), value(value), spelling(std::move(spelling)) {}
  const double value;
  const std::string spelling;
};

struct BoolImm final : Expr {
  static constexpr ExprKind kKind = ExprKind::kBoolImm;
  static ExprPtr make(bool value, SourceRange range);
  BoolImm(bool value, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), value(value) {}
  const bool value;
};

struct NoneImm final : Expr {
  static constexpr ExprKind kKind = ExprKind::kNoneImm;
  static ExprPtr make(SourceRange range);
  using Expr::Expr;
};

// A string literal, kept as its Python spelling (quotes and prefixes included).
struct StringImm final : Expr {
  static constexpr ExprKind kKind = ExprKind::kStringImm;
  static ExprPtr make(std::string spelling, SourceRange range);
  StringImm(std::string spelling, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), spelling(std::move(spelling)) {}
  const std::string spelling;
};

struct DtypeImm final : Expr {
  static constexpr ExprKind kKind = ExprKind::kDtypeImm;
  static ExprPtr make(ScalarType dtype, SourceRange range);
  DtypeImm(ScalarType dtype, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), dtype(dtype) {}
  const ScalarType dtype;
};

// A use of a binding (see Kernel::bindings); its type is the binding's type.
struct VarRef final : Expr {
  static constexpr ExprKind kKind = ExprKind::kVarRef;
  static ExprPtr make(int binding, Type type, SourceRange range);
  VarRef(int binding, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), binding(binding) {}
  const int binding;
};

enum class UnaryOp { kNeg, kPos, kInvert, kNot };
std::string_view unary_op_spelling(UnaryOp op);  // "-", "+", "~", "not "

struct Unary final : Expr {
  static constexpr ExprKind kKind = ExprKind::kUnary;
  static ExprPtr make(UnaryOp op, ExprPtr operand, Type type, SourceRange range);
  Unary(UnaryOp op, ExprPtr operand, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), op(op), operand(std::move(operand)) {}
  const UnaryOp op;
  const ExprPtr operand;
};

enum class BinaryOp {
  kAdd,
  kSub,
  kMul,
  kDiv,
  kFloorDiv,
  kMod,
  kPow,
  kBitAnd,
  kBitOr,
  kBitXor,
  kLShift,
  kRShift,
  kAnd,
  kOr
};
std::string_view binary_op_spelling(BinaryOp op);  // "+", "//", "and", ...

struct Binary final : Expr {
  static constexpr ExprKind kKind = ExprKind::kBinary;
  static ExprPtr make(BinaryOp op, ExprPtr lhs, ExprPtr rhs, Type type, SourceRange range);
  Binary(BinaryOp op, ExprPtr lhs, ExprPtr rhs, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  const BinaryOp op;
  const ExprPtr lhs;
  const ExprPtr rhs;

  // Whether `side` (lhs or rhs) is a number in arithmetic on arrays (`x[tile] / tile.block_size`):
  // there a tile attribute counts as a value, not as the size of the tile's values.
  bool is_number_operand(const ExprPtr& side) const {
    return (lhs->type.is_array() || rhs->type.is_array()) && !side->type.is_array();
  }
};

enum class CompareOp { kLt, kLe, kGt, kGe, kEq, kNe, kIs, kIsNot };
std::string_view compare_op_spelling(CompareOp op);

struct Compare final : Expr {
  static constexpr ExprKind kKind = ExprKind::kCompare;
  static ExprPtr make(CompareOp op, ExprPtr lhs, ExprPtr rhs, Type type, SourceRange range);
  Compare(CompareOp op, ExprPtr lhs, ExprPtr rhs, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), op(op), lhs(std::move(lhs)), rhs(std::move(rhs)) {}
  const CompareOp op;
  const ExprPtr lhs;
  const ExprPtr rhs;
};

// An intrinsic; absent optional operands are NoneImm.
struct Call final : Expr {
  static constexpr ExprKind kKind = ExprKind::kCall;
  static ExprPtr make(Intrinsic op, std::vector<ExprPtr> args, Type type, SourceRange range);
  Call(Intrinsic op, std::vector<ExprPtr> args, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), op(op), args(std::move(args)) {}
  const Intrinsic op;
  const std::vector<ExprPtr> args;
};

// One entry of a subscript in device code.
struct IndexItem {
  enum class Kind {
    kTile,      // a tile dimension: selects its block (`tile_m`)
    kVariadic,  // every dimension of a rank-polymorphic tile (`tile` from hl.tile(x.size()))
    kFull,      // `:`, the whole dimension
    kNewAxis,   // `None`
    kScalar,    // a device scalar, e.g. a grid index: the dimension disappears
    kGather,    // an integer tile tensor (`ids[tile_b]`): the dimension is replaced by its dims
    kSlice,     // `a:b` with host-int bounds: part of the dimension, Kernel::slices[slice]
  };
  Kind kind = Kind::kFull;
  int tile_dim = -1;  // kTile, kVariadic
  ExprPtr scalar;     // kScalar; kGather: the index tile tensor
  SourceRange range;
  int slice = -1;  // kSlice: index into Kernel::slices
};
using Index = std::vector<IndexItem>;

// `tensor[index]` read in device code; `tensor` is a VarRef to a host tensor binding.
struct Load final : Expr {
  static constexpr ExprKind kKind = ExprKind::kLoad;
  static ExprPtr make(ExprPtr tensor, Index index, Type type, SourceRange range);
  Load(ExprPtr tensor, Index index, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), tensor(std::move(tensor)), index(std::move(index)) {}
  const ExprPtr tensor;
  const Index index;
};

struct TupleExpr final : Expr {
  static constexpr ExprKind kKind = ExprKind::kTupleExpr;
  static ExprPtr make(std::vector<ExprPtr> elements, Type type, SourceRange range);
  TupleExpr(std::vector<ExprPtr> elements, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), elements(std::move(elements)) {}
  const std::vector<ExprPtr> elements;
};

// Element `index` of a tuple or shape; negative indices count from the end (shapes of
// trace-time rank need that).
struct TupleGet final : Expr {
  static constexpr ExprKind kKind = ExprKind::kTupleGet;
  static ExprPtr make(ExprPtr tuple, int index, Type type, SourceRange range);
  TupleGet(ExprPtr tuple, int index, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), tuple(std::move(tuple)), index(index) {}
  const ExprPtr tuple;
  const int index;
};

enum class TileAttrKind { kIndex, kBegin, kEnd, kBlockSize, kId, kCount };
std::string_view tile_attr_name(TileAttrKind attr);  // "index", "begin", ...

// An attribute of the current tile of dimension `tile_dim`: `.index` is the int32 vector of the
// global indices the tile covers (a tile tensor of shape [tile]); the others are device
// scalars (`.begin` the first index, `.end` one past the last valid one, `.id` the block
// number, `.count` the number of blocks, `.block_size` the block size).
struct TileAttr final : Expr {
  static constexpr ExprKind kKind = ExprKind::kTileAttr;
  static ExprPtr make(int tile_dim, TileAttrKind attr, Type type, SourceRange range);
  TileAttr(int tile_dim, TileAttrKind attr, Type type, SourceRange range)
      : Expr(kKind, std::move(type), range), tile_dim(tile_dim), attr(attr) {}
  const int tile_dim;
  const TileAttrKind attr;
};

// ---- Statements -------------------------------------------------------------------------

// `target = value` binds the whole value to one name; an unpacking Let (`a, b = value`,
// `(a,) = value`) binds the elements of a tuple or shape, one target each. A one-element
// unpacking has one target too, so passes ask `unpack`, never the number of targets, whether
// a target holds the whole value.
struct Let final : Stmt {
  static constexpr StmtKind kKind = StmtKind::kLet;
  static StmtPtr make(int target, ExprPtr value, SourceRange range);
  static StmtPtr make_unpack(std::vector<int> targets, ExprPtr value, SourceRange range);
  Let(std::vector<int> targets, ExprPtr value, SourceRange range, bool unpack)
      : Stmt(kKind, range), targets(std::move(targets)), value(std::move(value)), unpack(unpack) {}
  const std::vector<int> targets;
  const ExprPtr value;
  const bool unpack;
};

// An array the kernel produces. `shape` is shape-typed, `dtype` dtype-typed; `fill` is null
// for `empty` (contents undefined until written) and the initial value otherwise.
struct Alloc final : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAlloc;
  static StmtPtr make(int target, ExprPtr shape, ExprPtr dtype, ExprPtr fill, SourceRange range);
  Alloc(int target, ExprPtr shape, ExprPtr dtype, ExprPtr fill, SourceRange range)
      : Stmt(kKind, range),
        target(target),
        shape(std::move(shape)),
        dtype(std::move(dtype)),
        fill(std::move(fill)) {}
  const int target;
  const ExprPtr shape;
  const ExprPtr dtype;
  const ExprPtr fill;
};

// `tensor[index] = value` in device code (the value is cast to the tensor's dtype).
// `accumulate`: `tensor[index] += value` where every element of the value adds, also those
// whose indices repeat (a scatter-add: `hl.atomic_add` through a tile of indices, where a
// read-modify-write would let one of the repeated indices count).
struct Store final : Stmt {
  static constexpr StmtKind kKind = StmtKind::kStore;
  static StmtPtr make(ExprPtr tensor, Index index, ExprPtr value, SourceRange range,
                      bool accumulate = false);
  Store(ExprPtr tensor, Index index, ExprPtr value, SourceRange range, bool accumulate)
      : Stmt(kKind, range),
        tensor(std::move(tensor)),
        index(std::move(index)),
        value(std::move(value)),
        accumulate(accumulate) {}
  const ExprPtr tensor;
  const Index index;
  const ExprPtr value;
  const bool accumulate;
};

// Where a tile dimension's block size comes from.
struct BlockSource {
  enum class Kind {
    kTunable,  // config entry block_sizes[tunable] (and on, for a variadic dimension)
    kFixed,    // block_size= in the source (`size` is an int expression)
    kGrid,     // hl.grid: block 1, and the dimension disappears when indexed
  };
  Kind kind = Kind::kTunable;
  int tunable = -1;
  ExprPtr size;
};

// One dimension of a tile loop. A variadic dimension covers every dimension of the shape
// `extent` (rank known at trace time); otherwise it covers [begin, extent).
struct TileDim {
  int id = -1;       // index into Kernel::tile_dims
  std::string name;  // a readable name for generated code (`tile_m`, `tile_0`)
  ExprPtr begin;     // null: 0
  ExprPtr extent;    // int (or shape for variadic)
  BlockSource block;
  bool variadic = false;
  // `hl.jagged_tile(lengths)`: `extent` is the longest row of the enclosing block, and the
  // frontend masks each row past its own length (frontend/lower_jagged_tiles.cpp).
  bool jagged = false;
  // A reshape merges this tile into another tile's dimension (frontend/lower_reshape_merges.cpp):
  // the block is fixed to 1, and kept (never widened to a TPU-legal block).
  bool merged = false;
  // A size written as a number that the kernel stores into this tile's block (`out[tile_m, :] =
  // x[tile_m.begin + hl.arange(8), :]`), 0 if none: the only block the kernel's meaning holds
  // for, so the reference steps by it (the module checks the config's block at trace time).
  int64_t stored_block = 0;
  // Another loop over the same range whose tiles the kernel combines with this loop's row by
  // row (`x[tile_i] * y[tile_j]`, frontend/lower_paired_tiles.cpp), or -1. Such a loop's
  // blocks start at its begin (`begin + k * block`, Helion's blocks) rather than at multiples
  // of the block, and the two blocks must be equal (the module checks it while JAX traces).
  int paired_with = -1;
  // The divisors a view groups this tile's block by (`tile.block_size // 2`), multiplied out
  // (0 if none; frontend/lower_tile_groups.cpp): a leading axis's default block, else 1, is
  // this instead, and the module checks any block while it traces.
  int64_t grouped = 0;
  // The rows a window of the body reads from every block of this tile (`x_block[local.index]`
  // for `local` in `hl.tile(4, block_size=4)`; frontend/lower_tile_windows.cpp), 0 if none or
  // proved: the default block holds that many and leaves no shorter last block (`_legal_block`'s
  // `rows`); any other block is checked while the module traces.
  int64_t window_rows = 0;
  SourceRange range;
};

// `for vars in hl.tile(...)`/`hl.grid(...)`. At the top level of a kernel it is one launch
// (its tile dimensions form the grid); nested in device code it is an inner loop that runs
// sequentially inside one kernel invocation.
struct TileLoop final : Stmt {
  // A value carried from one iteration of an inner loop to the next: a name bound before the
  // loop and rebound in its body. The body reads `phi` (`init` on the first iteration, `next`
  // of the previous one after that); after the loop the name is `result`. In the generated
  // Python all four bindings share the source name; the IR keeps them apart for SSA.
  struct Carry {
    int init = -1;
    int phi = -1;
    int next = -1;
    int result = -1;
  };
  static constexpr StmtKind kKind = StmtKind::kTileLoop;
  static StmtPtr make(std::vector<int> tile_dims, std::vector<int> loop_vars, Block body,
                      SourceRange range, std::vector<Carry> carried = {});
  TileLoop(std::vector<int> tile_dims, std::vector<int> loop_vars, Block body, SourceRange range,
           std::vector<Carry> carried)
      : Stmt(kKind, range),
        tile_dims(std::move(tile_dims)),
        loop_vars(std::move(loop_vars)),
        body(std::move(body)),
        carried(std::move(carried)) {}
  const std::vector<int> tile_dims;  // ids into Kernel::tile_dims
  const std::vector<int> loop_vars;  // bindings of the loop targets
  const Block body;
  const std::vector<Carry> carried;  // inner loops only
};

// `for i in hl.static_range(begin, end, step)` in device code: a Python `for` over a host
// range in the kernel, so JAX unrolls it while tracing; `var` is a Python int there. Values
// rebound in the body are carried as in an inner tile loop (the same bindings scheme).
struct StaticLoop final : Stmt {
  static constexpr StmtKind kKind = StmtKind::kStaticLoop;
  static StmtPtr make(int var, ExprPtr begin, ExprPtr end, ExprPtr step, Block body,
                      std::vector<TileLoop::Carry> carried, SourceRange range);
  StaticLoop(int var, ExprPtr begin, ExprPtr end, ExprPtr step, Block body,
             std::vector<TileLoop::Carry> carried, SourceRange range)
      : Stmt(kKind, range),
        var(var),
        begin(std::move(begin)),
        end(std::move(end)),
        step(std::move(step)),
        body(std::move(body)),
        carried(std::move(carried)) {}
  const int var;
  const ExprPtr begin;  // host ints
  const ExprPtr end;
  const ExprPtr step;
  const Block body;
  const std::vector<TileLoop::Carry> carried;
};

// `if cond: ... else: ...` on static values (scalar arguments, sizes). Both host and device
// code may branch; the generated Python keeps the `if`, which runs while JAX traces.
struct If final : Stmt {
  // A name that the branches bind differently: after the `if` it is `result`, which is
  // `then_value` or `else_value` (bindings; either may be the one from before the `if`). In the
  // generated Python all three are the same name, so only the IR needs to say it.
  struct Merge {
    int result = -1;
    int then_value = -1;
    int else_value = -1;
  };
  static constexpr StmtKind kKind = StmtKind::kIf;
  static StmtPtr make(ExprPtr condition, Block then_body, Block else_body,
                      std::vector<Merge> merges, SourceRange range, bool on_device = false);
  If(ExprPtr condition, Block then_body, Block else_body, std::vector<Merge> merges,
     SourceRange range, bool on_device)
      : Stmt(kKind, range),
        condition(std::move(condition)),
        then_body(std::move(then_body)),
        else_body(std::move(else_body)),
        merges(std::move(merges)),
        on_device(on_device) {}
  const ExprPtr condition;
  const Block then_body;
  const Block else_body;  // empty when there is no else branch
  const std::vector<Merge> merges;
  // The condition is a value of the device code (`if flag[0] > 0:`, `if pid == 0:`), known only
  // when the kernel runs: the branches run under `pl.when` and bind no name used after the `if`
  // (merges is empty). Otherwise the condition is static, decided while JAX traces.
  const bool on_device;
};

// `assert cond, message` in host code: checked while the module is traced. An `implied` check
// is one the compiler adds where the kernel's meaning needs it (a literal size that meets a
// tensor's axis: `x.size(1) == 2`): its condition is `lhs == rhs`, its message says why, and the
// module raises a ValueError naming the size it got.
struct Assert final : Stmt {
  static constexpr StmtKind kKind = StmtKind::kAssert;
  static StmtPtr make(ExprPtr condition, ExprPtr message, SourceRange range, bool implied = false);
  Assert(ExprPtr condition, ExprPtr message, SourceRange range, bool implied)
      : Stmt(kKind, range),
        condition(std::move(condition)),
        message(std::move(message)),
        implied(implied) {}
  const ExprPtr condition;
  const ExprPtr message;  // may be null; never for an implied check
  const bool implied;
};

// `tuple`: the function returns a tuple of `values`, also of one value (`return (out,)`);
// always set when there are several.
struct Return final : Stmt {
  static constexpr StmtKind kKind = StmtKind::kReturn;
  static StmtPtr make(std::vector<ExprPtr> values, SourceRange range, bool tuple = false);
  Return(std::vector<ExprPtr> values, SourceRange range, bool tuple)
      : Stmt(kKind, range), values(std::move(values)), tuple(tuple || this->values.size() > 1) {}
  const std::vector<ExprPtr> values;  // one value, several, or none
  const bool tuple;
};

// ---- Kernels ------------------------------------------------------------------------------

// A named value. Rebinding a Python name creates a new binding with the same name, so every
// binding has exactly one type.
struct Binding {
  enum class Origin { kParam, kHost, kDevice, kLoopVar };
  std::string name;
  Type type;
  Origin origin = Origin::kHost;
  SourceRange range;  // where it is defined
  // A tensor: where its rank was learned (`m, n = x.size()`, `x[tile_m, :]`), for messages that
  // name the code expecting that rank; invalid when the rank is unknown or declared.
  SourceRange rank_evidence;
};

struct Param {
  int binding = -1;
  ExprPtr default_value;  // null when the parameter has none
  // An element of a parameter pack (a list, tuple or dict of tensors): its index in
  // Kernel::packs, and the name calls give its shape by (`xs.0`, `d.key`); -1 and empty for a
  // parameter of its own (calls name it by its binding's name).
  int pack = -1;
  std::string call_name;
};

// A kernel parameter that is a list, tuple or dict of tensors (`xs: tuple[torch.Tensor, ...]`,
// `d: dict[str, torch.Tensor]`). The caller passes one Python value; the module takes its
// elements apart on entry, and each element the kernel reads is a tensor parameter of its own
// (Param::pack), so passes and launches see only tensors. The frontend unrolls every use
// (`xs[0]`, `for x in xs`, `len(xs)`), so the element count is fixed when compiling.
struct ParamPack {
  enum class Kind { kSequence, kDict };
  std::string name;
  Kind kind = Kind::kSequence;
  // A sequence: exactly as many elements as `elements` (`tuple[T, T]`, `a, b = xs`, or read by
  // `len`/iteration), or else at least that many (only `xs[i]` with constant `i` reads it).
  bool exact = false;
  // A dict: the keys the kernel reads, as Python literals (`'x'`, `0`), one per element.
  std::vector<std::string> keys;
  std::vector<int> elements;  // the element bindings, in order
  SourceRange range;          // the parameter's name
};

// A config written in the decorator (`config=helion.Config(...)`, `configs=[...]`), with the
// keys that mean something for Pallas; GPU-only keys are dropped by the frontend with a remark.
struct BuiltinConfig {
  std::vector<int64_t> block_sizes;
  std::vector<std::string> pallas_loop_type;
  // `pallas_loop_type="unroll"` (Helion's form, one string): that strategy for every inner
  // loop, and nothing for a kernel without any.
  bool pallas_loop_type_for_all = false;
  std::vector<int64_t> pallas_load_buffer_count;
  std::vector<std::vector<int64_t>> loop_orders;
  std::optional<int64_t> vmem_limit_bytes;
  std::optional<bool> pallas_pre_broadcast;
  // Keys that are not Helion's config keys, with an int or bool literal value: the values of
  // `hl.register_tunable` keys once the body is lowered (others are then warned about).
  std::map<std::string, std::pair<int64_t, SourceRange>> other_keys;
  SourceRange range;
};

// The bounds of a bounded slice of a tensor in device code (`x[tile, 16:]`, `x[:, :n]`):
// host ints (known when JAX traces the kernel), Python's slice semantics; null when absent.
// IndexItem::kSlice and Dim::kSlice refer to it, so a slice's size has one definition.
struct SliceBounds {
  int binding = -1;  // the sliced tensor
  int axis = -1;     // its sliced axis
  ExprPtr start;
  ExprPtr stop;
  SourceRange range;
};

// A config key of the kernel's own, from `name = hl.register_tunable("name", Fragment(...))`
// (helion-subset.md §6): a host int (or bool) whose value the config gives, the fragment's
// default otherwise. The fragments are Helion's: PowerOfTwoFragment(low, high[, default]),
// IntegerFragment(low, high[, default]), EnumFragment((choices...)) of ints, BooleanFragment().
struct UserTunable {
  enum class Kind { kPowerOfTwo, kInteger, kEnum, kBoolean };
  std::string name;
  Kind kind = Kind::kInteger;
  int64_t low = 0;  // kPowerOfTwo, kInteger: the inclusive range
  int64_t high = 0;
  std::vector<int64_t> choices;  // kEnum, in the fragment's order
  int64_t default_value = 0;     // already clamped into the range, as Helion does
  SourceRange range;             // the `hl.register_tunable(...)` call

  // Whether the config may give `value` (booleans: 0 or 1).
  bool allows(int64_t value) const;
  // Every legal value in order (the search space; booleans: 0, 1).
  std::vector<int64_t> legal_values() const;
  // "a power of two from 16 to 256", "one of 1, 2, 4", "true or false": for messages.
  std::string describe_values() const;
};

struct Kernel {
  std::string name;
  SourceRange range;       // the whole decorated definition
  SourceRange name_range;  // the function name
  std::vector<Param> params;
  std::vector<ParamPack> packs;  // Param::pack indexes them
  std::vector<Binding> bindings;
  std::vector<TileDim> tile_dims;
  std::vector<SliceBounds> slices;
  // The sizes Dim::Kind::kComputed refers to: host ints computed from other sizes (read no
  // value of device code), each with its source spelling for messages. Interned by expression.
  struct ComputedSize {
    ExprPtr value;
    std::string text;
  };
  std::vector<ComputedSize> computed_sizes;
  int num_tunable_blocks = 0;
  // The range `hl.register_block_size(min, max)` / `(max)` gives each tunable block size, by
  // tunable (host ints; null where absent): the search offers only blocks within it.
  struct BlockRange {
    ExprPtr min;
    ExprPtr max;
  };
  std::vector<BlockRange> tunable_block_ranges;
  // By tunable: the host binding that holds a registered block size whose value the kernel
  // reads (`cdiv(m, block_m)`, `tile.id * block_m`), bound by a Let of Intrinsic::kBlockValue
  // where `hl.register_block_size` was called; -1 where the value is only passed as
  // `block_size=`. Such a block is computed once, and every launch that tiles with it must use
  // exactly that value (passes/block_observers.h).
  std::vector<int> block_value_bindings;
  // block_value_bindings[tunable], or -1 (also for a tunable that is not registered).
  int block_value_binding(int tunable) const;
  // `hl.register_tunable` keys, in order of registration (Intrinsic::kTunable indexes them).
  std::vector<UserTunable> user_tunables;
  Block body;
  // Configs from the decorator, in order; the first is the module's default when no YAML
  // config is given.
  std::vector<BuiltinConfig> builtin_configs;
  // Decorator keywords that helionc records but does not act on (static_shapes=...).
  std::vector<std::string> ignored_decorator_keywords;
  // The kernel's docstring as written between its quotes (escapes left as spelled), cleaned as
  // `inspect.cleandoc` cleans one (support/docstring.h); empty when it has none. The generated
  // function's docstring quotes it.
  std::string doc;
};

// The name calls give `param`'s shape by (`--shapes`, a config entry's `shapes:`): its
// binding's name, or `xs.0` / `d.key` for an element of a pack.
const std::string& call_name(const Kernel& kernel, const Param& param);
// Whether `param` is the first element of its pack: the pack's place in the signature.
bool opens_pack(const Kernel& kernel, const Param& param);

// `block` without the lets of host code that `dropped` picks, looking into host `if`s (device
// code is kept whole: host values it reads are gone by then).
Block without_host_lets(const Block& block, const std::function<bool(const Let&)>& dropped);

struct Module {
  const SourceFile* source = nullptr;
  std::vector<Kernel> kernels;
};

}  // namespace helionc::ir
