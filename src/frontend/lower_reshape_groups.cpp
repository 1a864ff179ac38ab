// `.reshape()`/`.view()` of a tile value that merges or splits dimensions the block holds whole
// (`x[t, :, :].reshape(t, 2, 2, 64)`, `token.reshape(2, 2, 2, 128)`). The tiles split both
// shapes into groups of whole axes and literal sizes; the tiles must stay as they are, in
// order, and each group must keep its element count, which makes the reshape move elements
// only within the block's whole axes (never across a tile's block, whose rows may be padding).
// A count fixed by literals is checked here; one that involves a tensor's axis is checked when
// JAX traces the module (an implied `ir::Assert` before the launch, as lower_literal_sizes.cpp).
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

namespace {

// The dimensions between two tiles (or an end): literal sizes multiplied out, whole axes kept.
struct SizeGroup {
  int64_t literal = 1;
  std::vector<Dim> wholes;  // axes and computed sizes, sorted: equal multisets compare equal
  int inferred = -1;        // the position of a -1 in the target, or -1
};

bool by_axis(const Dim& a, const Dim& b) {
  return std::tie(a.kind, a.binding, a.axis, a.size) < std::tie(b.kind, b.binding, b.axis, b.size);
}

// The groups of `dims` and the tiles between them; false when a dimension is neither a tile, a
// whole axis, a literal nor a unit (a slice, a rank-polymorphic tile), or a product overflows.
bool split_groups(const std::vector<std::optional<Dim>>& dims, std::vector<int>& tiles,
                  std::vector<SizeGroup>& groups) {
  groups.emplace_back();
  for (size_t i = 0; i < dims.size(); ++i) {
    if (!dims[i]) {
      groups.back().inferred = static_cast<int>(i);
      continue;
    }
    switch (dims[i]->kind) {
      case Dim::Kind::kUnit:
        break;
      case Dim::Kind::kTile:
        tiles.push_back(dims[i]->tile_dim);
        groups.emplace_back();
        break;
      case Dim::Kind::kLiteral:
        if (__builtin_mul_overflow(groups.back().literal, dims[i]->extent, &groups.back().literal))
          return false;
        break;
      case Dim::Kind::kFull:
      case Dim::Kind::kComputed:  // a factor like an axis, its count checked at trace time
        groups.back().wholes.push_back(*dims[i]);
        break;
      default:
        return false;
    }
  }
  for (SizeGroup& group : groups) std::sort(group.wholes.begin(), group.wholes.end(), by_axis);
  return true;
}

// `wholes` without the axes of `taken` (a sub-multiset of it), or nullopt when it is not one.
std::optional<std::vector<Dim>> without(const std::vector<Dim>& wholes,
                                        const std::vector<Dim>& taken) {
  std::vector<Dim> rest = wholes;
  for (const Dim& dim : taken) {
    const auto found = std::find(rest.begin(), rest.end(), dim);
    if (found == rest.end()) return std::nullopt;
    rest.erase(found);
  }
  return rest;
}

}  // namespace

ExprPtr KernelLowering::regroup_reshape(const ExprPtr& value,
                                        std::vector<std::optional<Dim>> target,
                                        std::string_view shown, const std::string& to,
                                        SourceRange range) {
  std::vector<std::optional<Dim>> source(value->type.dims.begin(), value->type.dims.end());
  std::vector<int> source_tiles;
  std::vector<int> target_tiles;
  std::vector<SizeGroup> from;
  std::vector<SizeGroup> into;
  if (!split_groups(source, source_tiles, from) || !split_groups(target, target_tiles, into) ||
      source_tiles != target_tiles) {
    return nullptr;  // the caller's "merges or splits dimensions"
  }
  const std::string shape = dims_to_string(kernel_, value->type.dims);
  const auto product_text = [&](const SizeGroup& group) {
    std::vector<std::string> factors;
    for (const Dim& dim : group.wholes) {
      std::string factor = dims_to_string(kernel_, {dim});  // "[...]"
      factor = factor.substr(1, factor.size() - 2);
      const bool compound =
          dim.kind == Dim::Kind::kComputed && factor.find_first_of(" +-*/%") != std::string::npos;
      factors.push_back(compound ? "(" + factor + ")" : factor);
    }
    if (group.literal != 1 || factors.empty()) factors.push_back(std::to_string(group.literal));
    return fmt::format("{}", fmt::join(factors, " * "));
  };
  for (size_t g = 0; g < from.size(); ++g) {
    const SizeGroup& have = from[g];
    SizeGroup& want = into[g];
    if (want.inferred >= 0) {
      // -1 is what the group's other sizes leave: the rest of its literal product (the same
      // whole axes on both sides), or one whole axis (the same literals).
      const std::optional<std::vector<Dim>> rest = without(have.wholes, want.wholes);
      if (rest && rest->empty() && have.literal % want.literal == 0) {
        const int64_t left = have.literal / want.literal;
        target[static_cast<size_t>(want.inferred)] = left == 1 ? Dim::unit() : Dim::literal(left);
      } else if (rest && rest->size() == 1 && have.literal == want.literal) {
        target[static_cast<size_t>(want.inferred)] = rest->front();
      } else {
        const bool alone = want.wholes.empty() && want.literal == 1;
        unsupported(range,
                    fmt::format("`{}` of a tile of shape {} to {} where the -1 stands for a size "
                                "computed from others ({}{}{})",
                                shown, shape, to, product_text(have), alone ? "" : " divided by ",
                                alone ? "" : product_text(want)));
      }
      continue;
    }
    if (have.wholes == want.wholes) {
      if (have.literal == want.literal) continue;
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("`{}` of a tile of shape {} to {} changes its element count: {} elements "
                       "become {}",
                       shown, shape, to, product_text(have), product_text(want)));
    }
    // A count with a tensor's axis in it: checked at trace time, the axes' side as the value
    // the error reports.
    const bool swap = have.wholes.empty();
    const SizeGroup& axes = swap ? want : have;
    const SizeGroup& other = swap ? have : want;
    const auto product = [&](const SizeGroup& group) {
      ExprPtr total;
      for (const Dim& dim : group.wholes) {
        ExprPtr size = dim_size(dim, range);
        total = total ? ir::Binary::make(ir::BinaryOp::kMul, total, size,
                                         Type::scalar(TypeKind::kInt), range)
                      : size;
      }
      if (!total || group.literal != 1) {
        ExprPtr literal = ir::IntImm::make(group.literal, range);
        total = total ? ir::Binary::make(ir::BinaryOp::kMul, total, literal,
                                         Type::scalar(TypeKind::kInt), range)
                      : literal;
      }
      return total;
    };
    ExprPtr equal = ir::Compare::make(ir::CompareOp::kEq, product(axes), product(other),
                                      Type::scalar(TypeKind::kBool), range);
    // The names are identifiers and the rest is plain text: a valid Python literal as spelled.
    const std::string text = fmt::format(
        "{} must be {}: the kernel reshapes a tile of shape {} to {} here (Helion specializes "
        "shapes); it is ",
        product_text(axes), product_text(other), shape, to);
    pending_size_checks_.push_back(ir::Assert::make(
        std::move(equal), ir::StringImm::make(fmt::format("\"{}\"", text), range), range,
        /*implied=*/true));
  }
  std::vector<Dim> dims;
  std::vector<ExprPtr> entries;
  for (const std::optional<Dim>& dim : target) {
    dims.push_back(*dim);
    entries.push_back(dim_size(*dim, range));
  }
  const int rank = static_cast<int>(entries.size());
  return ir::Call::make(ir::Intrinsic::kReshape,
                        {value, ir::TupleExpr::make(std::move(entries), Type::shape(rank), range)},
                        Type::tile_tensor(std::move(dims), value->type.dtype), range);
}

}  // namespace helionc::frontend
