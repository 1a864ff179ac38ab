// The static types of the tile IR. Ranks are known at compile time except for tensors tiled with
// `hl.tile(x.size())`, whose rank is fixed only when JAX traces the generated module; dtypes are
// known only where the source names them (an input's dtype is fixed at trace time), so a type
// carries an optional ScalarType and the generated code lets jnp promote the rest.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ir/dtype.h"

namespace helionc::ir {

enum class TypeKind {
  kNone,        // Python None
  kString,      // a string literal
  kBool,        // a static bool, or a bool scalar in device code
  kInt,         // a static int (sizes), or an int32 scalar in device code (a grid index)
  kFloat,       // a static float
  kDtype,       // a dtype value (`x.dtype`, `torch.float32`)
  kDevice,      // a `torch.device` parameter: JAX places arrays itself, so nothing reads it
  kTensor,      // a whole array in host code
  kTileTensor,  // a block of values in device code
  kTile,        // a tile loop variable (one or several tile dimensions)
  kShape,       // a tuple of sizes (`x.size()`)
  kTuple,       // any other tuple (`torch.broadcast_tensors(...)`)
  kCallable,    // a callable parameter passed at run time (frontend/lower_callables.cpp)
};

// One dimension of a tile tensor's shape.
struct Dim {
  enum class Kind {
    kTile,      // the block of tile dimension `tile_dim`
    kFull,      // a whole dimension (`:`): axis `axis` of the tensor bound as `binding`
    kUnit,      // a new axis of size 1 (`None`)
    kVariadic,  // every dimension of a rank-polymorphic tile (`hl.tile(x.size())`)
    kSlice,     // part of a whole dimension (`x[tile, 16:]`): axis `axis` of `binding` cut to
                // the bounds of Kernel::slices[slice]
    kLiteral,   // a size written as a number above 1 (`hl.zeros([2, 128])`, `v[1:3]`): `extent`
    kComputed,  // a host int computed from other sizes (`head_dim // 2`, `a.size(1) + b.size(1)`,
                // `next_power_of_2(n)`): Kernel::computed_sizes[size], a number once JAX traces
    kTilePart,  // a part of a tile's block (`tile.block_size // 2`): the block of tile dimension
                // `tile_dim` divided by `extent`, which must divide it
                // (frontend/lower_tile_groups.cpp)
  };
  Kind kind = Kind::kUnit;
  int tile_dim = -1;
  int binding = -1;
  int axis = -1;
  int slice = -1;       // kSlice
  int64_t extent = -1;  // kLiteral; kTilePart: the divisor
  int size = -1;        // kComputed

  static Dim tile(int tile_dim) { return {Kind::kTile, tile_dim, -1, -1, -1, -1}; }
  static Dim full(int binding, int axis) { return {Kind::kFull, -1, binding, axis, -1, -1}; }
  static Dim unit() { return {Kind::kUnit, -1, -1, -1, -1, -1}; }
  static Dim variadic(int tile_dim) { return {Kind::kVariadic, tile_dim, -1, -1, -1, -1}; }
  static Dim sliced(int binding, int axis, int slice) {
    return {Kind::kSlice, -1, binding, axis, slice, -1};
  }
  // A literal size meets a tensor's whole axis (`acc + x[tile, :].sum(0)`) only when they agree;
  // the frontend adds the trace-time check (KernelLowering::unify_dims).
  static Dim literal(int64_t extent) { return {Kind::kLiteral, -1, -1, -1, -1, extent}; }
  // Two computed sizes are the same dimension when they are the same expression (the frontend
  // interns them); where one meets another size the frontend adds a trace-time check.
  static Dim computed(int size) { return {Kind::kComputed, -1, -1, -1, -1, -1, size}; }
  // A tile's block in groups of `divisor` elements: the number of groups (a reshape of the
  // tile's dimension into [tile.block_size // divisor, divisor], and back).
  static Dim tile_part(int tile_dim, int64_t divisor) {
    return {Kind::kTilePart, tile_dim, -1, -1, -1, divisor};
  }
  // A whole dimension or a slice of one: its size is (at most) axis `axis` of `binding`.
  bool within_axis() const { return kind == Kind::kFull || kind == Kind::kSlice; }
  bool operator==(const Dim& other) const = default;
};

struct Type {
  TypeKind kind = TypeKind::kNone;
  std::optional<ScalarType> dtype;  // tensors, tile tensors, device scalars
  int rank = -1;                    // tensors and shapes: -1 when only known at trace time
  std::vector<Dim> dims;            // tile tensors
  std::vector<int> tile_dims;       // tiles: the tile dimensions the variable stands for
  bool variadic = false;            // tiles/shapes/tensors of trace-time rank
  bool optional = false;            // tensors: a `torch.Tensor | None` parameter, maybe None
  std::vector<Type> elements;       // tuples

  static Type none() { return {}; }
  static Type scalar(TypeKind kind) {
    Type type;
    type.kind = kind;
    return type;
  }
  static Type dtype_value() { return scalar(TypeKind::kDtype); }
  static Type tensor(int rank, std::optional<ScalarType> dtype = std::nullopt);
  static Type tile_tensor(std::vector<Dim> dims, std::optional<ScalarType> dtype);
  static Type tile(std::vector<int> tile_dims, bool variadic);
  static Type shape(int rank);
  static Type tuple(std::vector<Type> elements);

  bool is_scalar() const {
    return kind == TypeKind::kBool || kind == TypeKind::kInt || kind == TypeKind::kFloat;
  }
  bool is_array() const { return kind == TypeKind::kTensor || kind == TypeKind::kTileTensor; }
  bool rank_known() const { return !variadic && rank >= 0; }
  // The rank of a tile tensor when static (no variadic dim), else -1.
  int tile_rank() const;
};

// A short human-readable spelling for diagnostics and IR dumps: "tensor<2 x bfloat16>",
// "tile_tensor<[tile_m, :] x ?>", "int".
std::string type_to_string(const Type& type);

}  // namespace helionc::ir
