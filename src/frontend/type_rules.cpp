#include "frontend/type_rules.h"

#include <fmt/format.h>

#include "ir/printer.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ScalarType;
using ir::Type;
using ir::TypeKind;

namespace {

// How firmly a size is written: a literal over a computed size over a tensor's axis (the shape
// keeps the firmer), 0 for the dims that never meet with a check.
int firmness(const Dim& dim) {
  switch (dim.kind) {
    case Dim::Kind::kLiteral:
      return 3;
    case Dim::Kind::kComputed:
      return 2;
    case Dim::Kind::kFull:
      return 1;
    default:
      return 0;
  }
}

}  // namespace

std::optional<SizeAgreement> checked_sizes(const Dim& a, const Dim& b) {
  const int fa = firmness(a);
  const int fb = firmness(b);
  // Two literals are equal or not here; two axes are compared by jnp as it broadcasts. A
  // computed size meets anything sized: literal and axis, each pair once.
  if (fa == 0 || fb == 0 || a == b || (fa != 2 && fb != 2 && fa == fb)) return std::nullopt;
  return fa >= fb ? SizeAgreement{a, b} : SizeAgreement{b, a};
}

std::vector<ir::Dim> without_units(const std::vector<ir::Dim>& dims) {
  std::vector<ir::Dim> kept;
  for (const ir::Dim& dim : dims) {
    if (dim.kind != ir::Dim::Kind::kUnit) kept.push_back(dim);
  }
  return kept;
}

bool dims_agree(const std::vector<Dim>& a, const std::vector<Dim>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i] != b[i] && !checked_sizes(a[i], b[i])) return false;
  }
  return true;
}

std::optional<std::vector<Dim>> broadcast_dims(const std::vector<Dim>& a, const std::vector<Dim>& b,
                                               std::vector<SizeAgreement>* agreements) {
  const auto has_variadic = [](const std::vector<Dim>& dims) {
    for (const Dim& dim : dims) {
      if (dim.kind == Dim::Kind::kVariadic) return true;
    }
    return false;
  };
  // A rank-polymorphic tile only meets itself (or a scalar): its rank is unknown here.
  if (has_variadic(a) || has_variadic(b)) {
    if (a.empty()) return b;
    if (b.empty()) return a;
    if (a == b) return a;
    return std::nullopt;
  }
  const size_t rank = std::max(a.size(), b.size());
  std::vector<Dim> result(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Right-aligned, as numpy and torch broadcast.
    const Dim* da = i < rank - a.size() ? nullptr : &a[i - (rank - a.size())];
    const Dim* db = i < rank - b.size() ? nullptr : &b[i - (rank - b.size())];
    if (!da || da->kind == Dim::Kind::kUnit) {
      result[i] = db ? *db : *da;
    } else if (!db || db->kind == Dim::Kind::kUnit) {
      result[i] = *da;
    } else if (*da == *db) {
      result[i] = *da;
    } else if (const auto agreement = checked_sizes(*da, *db)) {
      result[i] = agreement->literal;
      if (agreements) agreements->push_back(*agreement);
    } else if (da->within_axis() && db->within_axis()) {
      // Two whole dimensions of different tensors, or slices of them: equal or not is known at
      // trace time, where jnp checks it.
      result[i] = *da;
    } else if (agreements && (da->kind == Dim::Kind::kFull) != (db->kind == Dim::Kind::kFull) &&
               (da->kind == Dim::Kind::kTile || db->kind == Dim::Kind::kTile)) {
      // A whole axis against a tile's block: a size-1 axis broadcasting (checked at trace
      // time; only a caller that collects agreements can check it).
      const Dim& full = da->kind == Dim::Kind::kFull ? *da : *db;
      const Dim& tile = da->kind == Dim::Kind::kTile ? *da : *db;
      result[i] = tile;
      agreements->push_back(SizeAgreement{Dim::literal(1), full, tile.tile_dim});
    } else {
      return std::nullopt;
    }
  }
  return result;
}

namespace {

bool is_python_scalar(const Type& type) { return type.is_scalar(); }

std::optional<ScalarType> scalar_dtype(const Type& type) {
  switch (type.kind) {
    case TypeKind::kBool:
      return ScalarType::kBool;
    case TypeKind::kInt:
      return ScalarType::kInt32;
    case TypeKind::kFloat:
      return ScalarType::kFloat32;
    default:
      return type.dtype;
  }
}

}  // namespace

std::optional<ScalarType> result_dtype(const Type& a, const Type& b, ArithKind kind) {
  if (kind == ArithKind::kComparison) return ScalarType::kBool;
  std::optional<ScalarType> dtype;
  if (is_python_scalar(a) && !is_python_scalar(b)) {
    dtype = b.dtype;
    if (dtype && a.kind == TypeKind::kFloat && !ir::is_floating(*dtype))
      dtype = ScalarType::kFloat32;
  } else if (is_python_scalar(b) && !is_python_scalar(a)) {
    dtype = a.dtype;
    if (dtype && b.kind == TypeKind::kFloat && !ir::is_floating(*dtype))
      dtype = ScalarType::kFloat32;
  } else {
    const auto da = scalar_dtype(a);
    const auto db = scalar_dtype(b);
    if (da && db) dtype = ir::promote(*da, *db);
  }
  if (kind == ArithKind::kTrueDivide && dtype && !ir::is_floating(*dtype)) {
    dtype = ScalarType::kFloat32;
  }
  return dtype;
}

std::optional<ScalarType> float_math_dtype(const Type& x) {
  const auto dtype = scalar_dtype(x);
  if (!dtype) return std::nullopt;
  return ir::is_floating(*dtype) ? *dtype : ScalarType::kFloat32;
}

std::string dims_to_string(const ir::Kernel& kernel, const std::vector<Dim>& dims) {
  std::vector<std::string> parts;
  for (const Dim& dim : dims) {
    switch (dim.kind) {
      case Dim::Kind::kTile:
        parts.push_back(kernel.tile_dims[dim.tile_dim].name);
        break;
      case Dim::Kind::kVariadic:
        parts.push_back(fmt::format("*{}", kernel.tile_dims[dim.tile_dim].name));
        break;
      case Dim::Kind::kFull:
        parts.push_back(fmt::format("{}.size({})", kernel.bindings[dim.binding].name, dim.axis));
        break;
      case Dim::Kind::kUnit:
        parts.push_back("1");
        break;
      case Dim::Kind::kSlice:
        parts.push_back(fmt::format("{}.size({})[{}]", kernel.bindings[dim.binding].name, dim.axis,
                                    ir::print_slice_bounds(kernel, kernel.slices[dim.slice])));
        break;
      case Dim::Kind::kLiteral:
        parts.push_back(std::to_string(dim.extent));
        break;
      case Dim::Kind::kComputed:
        parts.push_back(kernel.computed_sizes[static_cast<size_t>(dim.size)].text);
        break;
      case Dim::Kind::kTilePart:
        parts.push_back(
            fmt::format("{}.block_size // {}", kernel.tile_dims[dim.tile_dim].name, dim.extent));
        break;
    }
  }
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

ir::ExprPtr size_expr(const ir::Kernel& kernel, const Dim& dim, SourceRange range) {
  switch (dim.kind) {
    case Dim::Kind::kTile:
      return ir::TileAttr::make(dim.tile_dim, ir::TileAttrKind::kBlockSize,
                                Type::scalar(TypeKind::kInt), range);
    case Dim::Kind::kFull: {
      const ir::Binding& tensor = kernel.bindings[dim.binding];
      return ir::Call::make(
          ir::Intrinsic::kSize,
          {ir::VarRef::make(dim.binding, tensor.type, range), ir::IntImm::make(dim.axis, range)},
          Type::scalar(TypeKind::kInt), range);
    }
    case Dim::Kind::kLiteral:
      return ir::IntImm::make(dim.extent, range);
    case Dim::Kind::kComputed:
      return kernel.computed_sizes[static_cast<size_t>(dim.size)].value;
    case Dim::Kind::kTilePart:
      // The module checks the division while it traces (`_block_part`).
      return ir::Call::make(ir::Intrinsic::kBlockPart,
                            {ir::TileAttr::make(dim.tile_dim, ir::TileAttrKind::kBlockSize,
                                                Type::scalar(TypeKind::kInt), range),
                             ir::IntImm::make(dim.extent, range)},
                            Type::scalar(TypeKind::kInt), range);
    default:
      return ir::IntImm::make(1, range);
  }
}

}  // namespace helionc::frontend
