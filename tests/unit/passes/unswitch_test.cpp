// Unswitching device `if`s that look at tensor arguments (`if bias is not None:`).
#include <catch2/catch.hpp>

#include "passes/kernels/test_kernels.h"
#include "passes/pipeline.h"

namespace helionc::passes {
namespace {

using testing::KernelBuilder;
using K = KernelBuilder;

// for tm, tn in hl.tile([m, n]):
//     v = x[tm, tn]
//     if bias is not None:       (or: if flag:)
//         v = v + bias[tn]
//     out[tm, tn] = v
KernelBuilder optional_bias(bool on_tensor) {
  KernelBuilder b("opt_bias");
  const int x = b.param("x", ir::Type::tensor(2));
  ir::Type bias_type = ir::Type::tensor(1);
  bias_type.optional = true;
  const int bias = b.param("bias", bias_type, ir::NoneImm::make({}));
  const int flag =
      b.param("flag", ir::Type::scalar(ir::TypeKind::kBool), ir::BoolImm::make(true, {}));
  const int m = b.unpack_shape({"m", "n"}, x, 2);
  const int out = b.empty_like("out", x, 3);
  const int tm = b.tile_dim("tm", b.ref(m), 0);
  const int tn = b.tile_dim("tn", b.ref(m + 1), 1);
  const int vm = b.bind("tm", ir::Type::tile({tm}, false), ir::Binding::Origin::kLoopVar);
  const int vn = b.bind("tn", ir::Type::tile({tn}, false), ir::Binding::Origin::kLoopVar);
  const std::vector<ir::Dim> dims = {ir::Dim::tile(tm), ir::Dim::tile(tn)};
  const ir::Type tile_type = ir::Type::tile_tensor(dims, std::nullopt);
  const int v = b.bind("v", tile_type, ir::Binding::Origin::kDevice);
  const int v1 = b.bind("v", tile_type, ir::Binding::Origin::kDevice);
  const int v2 = b.bind("v", tile_type, ir::Binding::Origin::kDevice);
  ir::ExprPtr condition =
      on_tensor ? ir::Compare::make(ir::CompareOp::kIsNot, b.ref(bias), ir::NoneImm::make({}),
                                    ir::Type::scalar(ir::TypeKind::kBool), b.line(5))
                : b.ref(flag);
  ir::Block then_body = {ir::Let::make(
      {v1},
      b.binary(ir::BinaryOp::kAdd, b.ref(v), b.load(bias, {K::tile(tn)}, {ir::Dim::tile(tn)}, 6)),
      b.line(6))};
  ir::Block body = {
      ir::Let::make({v}, b.load(x, {K::tile(tm), K::tile(tn)}, dims, 4), b.line(4)),
      ir::If::make(condition, std::move(then_body), {}, {{v2, v1, v}}, b.line(5)),
      b.store(out, {K::tile(tm), K::tile(tn)}, b.ref(v2), 7),
  };
  b.kernel().body.push_back(ir::TileLoop::make({tm, tn}, {vm, vn}, std::move(body), b.line(3)));
  b.kernel().body.push_back(ir::Return::make({b.ref(out)}, b.line(8)));
  return b;
}

TEST_CASE("an `if` on a tensor argument splits the launch in two") {
  KernelBuilder b = optional_bias(true);
  DiagnosticEngine diags;
  auto result = run_pipeline(b.module(), {}, diags);
  INFO(diags.render());
  REQUIRE(result);
  const ir::Kernel& kernel = result->module.kernels[0];
  // m, n = ...; out = ...; if bias is not None: <loop> else: <loop>; return out
  REQUIRE(kernel.body.size() == 4);
  const auto* branch = kernel.body[2]->as<ir::If>();
  REQUIRE(branch);
  REQUIRE(branch->then_body.size() == 1);
  REQUIRE(branch->else_body.size() == 1);
  CHECK(branch->then_body[0]->kind == ir::StmtKind::kTileLoop);
  CHECK(branch->else_body[0]->kind == ir::StmtKind::kTileLoop);
  const std::vector<Launch>& launches = result->plans.at(0).launches;
  REQUIRE(launches.size() == 2);
  CHECK(launches[0].inputs.size() == 2);  // x, bias
  CHECK(launches[1].inputs.size() == 1);  // x
  CHECK(launches[1].outputs.at(0).aliased_input == -1);
}

TEST_CASE("an `if` on a plain static value stays in the kernel") {
  KernelBuilder b = optional_bias(false);
  DiagnosticEngine diags;
  auto result = run_pipeline(b.module(), {}, diags);
  REQUIRE(result);
  CHECK(result->module.kernels[0].body[2]->kind == ir::StmtKind::kTileLoop);
  const std::vector<Launch>& launches = result->plans.at(0).launches;
  REQUIRE(launches.size() == 1);
  CHECK(launches[0].inputs.size() == 2);
  REQUIRE(launches[0].captures.size() == 1);
  CHECK(launches[0].captures[0].kind == Capture::Kind::kValue);
}

}  // namespace
}  // namespace helionc::passes
