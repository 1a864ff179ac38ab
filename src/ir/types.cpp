#include "ir/types.h"

#include <fmt/format.h>

namespace helionc::ir {

Type Type::tensor(int rank, std::optional<ScalarType> dtype) {
  Type type = scalar(TypeKind::kTensor);
  type.rank = rank;
  type.variadic = rank < 0;
  type.dtype = dtype;
  return type;
}

Type Type::tile_tensor(std::vector<Dim> dims, std::optional<ScalarType> dtype) {
  Type type = scalar(TypeKind::kTileTensor);
  type.dtype = dtype;
  for (const Dim& dim : dims) {
    if (dim.kind == Dim::Kind::kVariadic) type.variadic = true;
  }
  type.dims = std::move(dims);
  type.rank = type.variadic ? -1 : static_cast<int>(type.dims.size());
  return type;
}

Type Type::tile(std::vector<int> tile_dims, bool variadic) {
  Type type = scalar(TypeKind::kTile);
  type.tile_dims = std::move(tile_dims);
  type.variadic = variadic;
  return type;
}

Type Type::shape(int rank) {
  Type type = scalar(TypeKind::kShape);
  type.rank = rank;
  type.variadic = rank < 0;
  return type;
}

Type Type::tuple(std::vector<Type> elements) {
  Type type = scalar(TypeKind::kTuple);
  type.rank = static_cast<int>(elements.size());
  type.elements = std::move(elements);
  return type;
}

int Type::tile_rank() const { return variadic ? -1 : static_cast<int>(dims.size()); }

namespace {

std::string dtype_suffix(const std::optional<ScalarType>& dtype) {
  return dtype ? std::string(dtype_name(*dtype)) : std::string("?");
}

std::string dim_to_string(const Dim& dim) {
  switch (dim.kind) {
    case Dim::Kind::kTile:
      return fmt::format("t{}", dim.tile_dim);
    case Dim::Kind::kFull:
      return fmt::format("%{}.{}", dim.binding, dim.axis);
    case Dim::Kind::kUnit:
      return "1";
    case Dim::Kind::kVariadic:
      return fmt::format("t{}...", dim.tile_dim);
    case Dim::Kind::kSlice:
      return fmt::format("%{}.{}[s{}]", dim.binding, dim.axis, dim.slice);
    case Dim::Kind::kLiteral:
      return std::to_string(dim.extent);
    case Dim::Kind::kComputed:
      return fmt::format("c{}", dim.size);
    case Dim::Kind::kTilePart:
      return fmt::format("t{}/{}", dim.tile_dim, dim.extent);
  }
  return "?";
}

}  // namespace

std::string type_to_string(const Type& type) {
  switch (type.kind) {
    case TypeKind::kNone:
      return "none";
    case TypeKind::kString:
      return "str";
    case TypeKind::kBool:
      return "bool";
    case TypeKind::kInt:
      return "int";
    case TypeKind::kFloat:
      return "float";
    case TypeKind::kDtype:
      return "dtype";
    case TypeKind::kDevice:
      return "device";
    case TypeKind::kCallable:
      return "callable";
    case TypeKind::kTensor:
      return fmt::format("{}tensor<{} x {}>", type.optional ? "optional " : "",
                         type.variadic ? std::string("*") : std::to_string(type.rank),
                         dtype_suffix(type.dtype));
    case TypeKind::kTileTensor: {
      std::vector<std::string> dims;
      for (const Dim& dim : type.dims) dims.push_back(dim_to_string(dim));
      return fmt::format("tile_tensor<[{}] x {}>", fmt::join(dims, ", "), dtype_suffix(type.dtype));
    }
    case TypeKind::kTile: {
      std::vector<std::string> dims;
      for (int dim : type.tile_dims) dims.push_back(fmt::format("t{}", dim));
      return fmt::format("tile<{}{}>", fmt::join(dims, ", "), type.variadic ? "..." : "");
    }
    case TypeKind::kShape:
      return type.variadic ? std::string("shape<*>") : fmt::format("shape<{}>", type.rank);
    case TypeKind::kTuple: {
      std::vector<std::string> elements;
      for (const Type& element : type.elements) elements.push_back(type_to_string(element));
      return fmt::format("tuple<{}>", fmt::join(elements, ", "));
    }
  }
  return "?";
}

}  // namespace helionc::ir
