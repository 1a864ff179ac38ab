#include <catch2/catch.hpp>

#include "ir/dtype.h"
#include "ir/mutator.h"
#include "ir/types.h"

using namespace helionc;
using ir::Dim;
using ir::ScalarType;
using ir::Type;
using ir::TypeKind;

TEST_CASE("torch.promote_types for the 32-bit-or-narrower types") {
  CHECK(ir::promote(ScalarType::kBFloat16, ScalarType::kFloat16) == ScalarType::kFloat32);
  CHECK(ir::promote(ScalarType::kBFloat16, ScalarType::kFloat32) == ScalarType::kFloat32);
  CHECK(ir::promote(ScalarType::kUInt8, ScalarType::kInt8) == ScalarType::kInt16);
  CHECK(ir::promote(ScalarType::kInt32, ScalarType::kBFloat16) == ScalarType::kBFloat16);
  CHECK(ir::promote(ScalarType::kBool, ScalarType::kInt8) == ScalarType::kInt8);
}

TEST_CASE("the mutator copies nothing when nothing changes") {
  helionc::SourceRange none;
  auto x = ir::VarRef::make(0, Type::tile_tensor({Dim::tile(0)}, std::nullopt), none);
  auto sum = ir::Binary::make(ir::BinaryOp::kAdd, x, ir::IntImm::make(1, none), x->type, none);
  ir::Mutator identity;
  CHECK(identity.mutate(sum) == sum);

  struct OneToTwo : ir::Mutator {
    ir::ExprPtr mutate_node(const ir::IntImm& node, const ir::ExprPtr& self) override {
      return node.value == 1 ? ir::IntImm::make(2, node.range) : self;
    }
  } one_to_two;
  auto changed = one_to_two.mutate(sum);
  REQUIRE(changed != sum);
  CHECK(changed->as<ir::Binary>()->lhs == x);  // the untouched child is shared, not copied
  CHECK(changed->as<ir::Binary>()->rhs->as<ir::IntImm>()->value == 2);
}
