// PyTorch's typing rules as the frontend applies them: the result type of arithmetic between
// static scalars, whole tensors and tile tensors (broadcasting, promotion, Python scalars that do
// not widen a tensor), and how a shape prints in diagnostics.
#pragma once

#include <optional>
#include <string>

#include "ir/nodes.h"

namespace helionc::frontend {

enum class ArithKind { kArithmetic, kTrueDivide, kComparison, kLogical, kBitwise };

// Two sizes that met in a broadcast (or a store, or a carry) and must be equal, which only the
// call's shapes tell (KernelLowering::unify_dims checks it then): a literal size and a tensor's
// axis, or a computed size (Dim::Kind::kComputed) and a tensor's axis, a literal or another
// computed size; the shape keeps `literal`, the size the kernel wrote. Or a whole axis that met
// a tile's block in arithmetic (`x[t0, t1] * m[t0, :]`): PyTorch broadcasts it only when its
// length is 1, which `literal` then is (as Dim::literal(1)) and `broadcast_tile` names the tile.
struct SizeAgreement {
  ir::Dim literal;  // kLiteral or kComputed (or kFull: two axes a product makes equal)
  ir::Dim full;     // kFull, or kLiteral/kComputed against a computed `literal`
  int broadcast_tile = -1;
};

// The agreement of two sizes whose equality only the call's shapes tell, or nullopt (equal
// dims, tiles, two whole axes, two literals).
std::optional<SizeAgreement> checked_sizes(const ir::Dim& a, const ir::Dim& b);

// The broadcast of two tile-tensor shapes, or nullopt when they are incompatible. A static
// scalar (empty dims) broadcasts against anything. A literal size meets a whole axis as that
// literal (so a carried `hl.zeros([2, 128])` keeps its type); each such meeting is appended to
// `agreements` when given.
std::optional<std::vector<ir::Dim>> broadcast_dims(
    const std::vector<ir::Dim>& a, const std::vector<ir::Dim>& b,
    std::vector<SizeAgreement>* agreements = nullptr);

// Whether two shapes are the same up to literal sizes standing for whole axes (the agreements
// broadcast_dims reports): the test a store, a carry and an accumulator apply.
bool dims_agree(const std::vector<ir::Dim>& a, const std::vector<ir::Dim>& b);

// `dims` without its unit dimensions (the sizes a reshape moves, whatever 1s surround them).
std::vector<ir::Dim> without_units(const std::vector<ir::Dim>& dims);

// The dtype of `a op b` when both are known; a Python scalar operand (nullopt dtype with
// `scalar_kind`) keeps the tensor's dtype except that a float scalar makes an integer tensor
// float32, as in torch.result_type.
std::optional<ir::ScalarType> result_dtype(const ir::Type& a, const ir::Type& b, ArithKind kind);

// The dtype of a float-valued math function of `x` (exp, sqrt, sigmoid, ...): integers and bool
// become float32, floats keep their width, unknown stays unknown.
std::optional<ir::ScalarType> float_math_dtype(const ir::Type& x);

// "[tile_m, tile_n]" / "[tile_m, :]" using the kernel's names, for diagnostics.
std::string dims_to_string(const ir::Kernel& kernel, const std::vector<ir::Dim>& dims);

// The size of dimension `dim` as a device expression: `tile.block_size`, `x.size(d)`, a
// number, the host expression of a computed size, or 1.
ir::ExprPtr size_expr(const ir::Kernel& kernel, const ir::Dim& dim, SourceRange range);

}  // namespace helionc::frontend
