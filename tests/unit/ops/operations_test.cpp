#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "ops/operations.h"

using namespace helionc;

TEST_CASE("every operation has a jnp and a scalar spelling, and the IR's name and arity") {
  for (const ops::Operation& operation : ops::operations()) {
    INFO(operation.name);
    CHECK(!operation.jnp.empty());
    CHECK(!operation.scalar.empty());
    CHECK(ir::intrinsic_name(operation.op) == operation.name);
    CHECK(ir::intrinsic_arity(operation.op) == operation.arity);
    CHECK(ops::find(operation.op) == &operation);
    // A Mosaic helper names the templates it needs, its own first.
    if (operation.mosaic.starts_with("_")) {
      CHECK(operation.helpers.substr(0, operation.helpers.find(' ')) == operation.mosaic.substr(1));
    }
  }
  CHECK(ops::find(ir::Intrinsic::kDot) == nullptr);
}

TEST_CASE("each source spelling names one operation, and resolves to it") {
  std::set<std::string> seen;
  for (const ops::Operation& operation : ops::operations()) {
    ops::for_each_word(operation.spellings, [&](std::string_view spelling) {
      INFO(spelling);
      CHECK(seen.insert(std::string(spelling)).second);
      if (spelling.starts_with("Tensor.")) {
        CHECK(ops::unary_method(spelling.substr(7)) == &operation);
      } else {
        CHECK(ops::unary_function(spelling) == &operation);
      }
    });
  }
  CHECK(ops::unary_function("torch.silu") == nullptr);  // F.silu only
  CHECK(ops::unary_method("silu") == nullptr);
  CHECK(ops::unary_function("torch.special.expit")->op == ir::Intrinsic::kSigmoid);
}

TEST_CASE("the facts the padding and skip analyses read") {
  const ops::Facts& exp = ops::find(ir::Intrinsic::kExp)->facts;
  CHECK(exp.apply(ops::Known::kNegInf) == ops::Known::kZero);
  CHECK(exp.apply(ops::Known::kZero) == ops::Known::kOne);
  CHECK(exp.apply(ops::Known::kUnknown) == ops::Known::kUnknown);
  const ops::Facts& relu = ops::find(ir::Intrinsic::kRelu)->facts;
  CHECK(relu.apply(ops::Known::kZero) == ops::Known::kZero);
  CHECK(relu.apply(ops::Known::kNegInf) == ops::Known::kUnknown);
  CHECK(ops::find(ir::Intrinsic::kLog)->facts.apply(ops::Known::kZero) == ops::Known::kUnknown);
}
