#include <catch2/catch.hpp>

#include "frontend/type_rules.h"

using namespace helionc;
using ir::Dim;
using ir::ScalarType;
using ir::Type;
using ir::TypeKind;

TEST_CASE("Python scalars do not widen tensors") {
  const Type bf16 = Type::tile_tensor({Dim::tile(0)}, ScalarType::kBFloat16);
  const Type i32 = Type::tile_tensor({Dim::tile(0)}, ScalarType::kInt32);
  const Type f = Type::scalar(TypeKind::kFloat);
  const Type i = Type::scalar(TypeKind::kInt);
  using frontend::ArithKind;
  CHECK(frontend::result_dtype(bf16, f, ArithKind::kArithmetic) == ScalarType::kBFloat16);
  CHECK(frontend::result_dtype(i32, f, ArithKind::kArithmetic) == ScalarType::kFloat32);
  CHECK(frontend::result_dtype(i32, i, ArithKind::kArithmetic) == ScalarType::kInt32);
  CHECK(frontend::result_dtype(i32, i, ArithKind::kTrueDivide) == ScalarType::kFloat32);
  CHECK(frontend::result_dtype(bf16, i32, ArithKind::kComparison) == ScalarType::kBool);
}

TEST_CASE("tile shapes broadcast right-aligned") {
  const std::vector<Dim> mn = {Dim::tile(0), Dim::tile(1)};
  const std::vector<Dim> n = {Dim::tile(1)};
  const std::vector<Dim> m1 = {Dim::tile(0), Dim::unit()};
  CHECK(frontend::broadcast_dims(mn, n) == mn);
  CHECK(frontend::broadcast_dims(m1, n) == mn);
  CHECK_FALSE(frontend::broadcast_dims(mn, std::vector<Dim>{Dim::tile(0)}).has_value());
  const std::vector<Dim> any = {Dim::variadic(0)};
  CHECK(frontend::broadcast_dims(any, {}) == any);
  CHECK_FALSE(frontend::broadcast_dims(any, n).has_value());
}
