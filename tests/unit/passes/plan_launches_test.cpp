// Launch planning on kernels built by hand (passes/kernels/test_kernels.h).
#include <catch2/catch.hpp>

#include <set>

#include <algorithm>

#include "ir/verifier.h"
#include "passes/kernels/test_kernels.h"
#include "passes/pipeline.h"
#include "passes/plan_launches.h"

namespace helionc::passes {
namespace {

using testing::KernelBuilder;
using K = KernelBuilder;

KernelPlan plan_of(KernelBuilder& builder) {
  REQUIRE(ir::verify_kernel(builder.kernel()).empty());
  const ir::Module module = builder.module();
  DiagnosticEngine diags;
  std::optional<KernelPlan> plan = plan_launches(module, 0, diags);
  INFO(diags.render());
  REQUIRE(plan);
  REQUIRE_FALSE(diags.has_errors());
  return std::move(*plan);
}

std::string errors_of(KernelBuilder& builder) {
  const ir::Module module = builder.module();
  DiagnosticEngine diags;
  CHECK_FALSE(plan_launches(module, 0, diags));
  CHECK(diags.has_errors());
  std::string messages;
  for (const Diagnostic& d : diags.diagnostics()) messages += d.message + "\n";
  return messages;
}

TEST_CASE("add: one rank-polymorphic launch, two inputs, one fresh output") {
  KernelBuilder b = testing::add_kernel();
  const KernelPlan plan = plan_of(b);
  REQUIRE(plan.launches.size() == 1);
  const Launch& launch = plan.launches[0];
  CHECK(launch.variadic);
  REQUIRE(launch.grid.size() == 1);
  REQUIRE(launch.inputs.size() == 2);
  CHECK(b.kernel().bindings[launch.inputs[0].operand.binding].name == "x");
  CHECK(b.kernel().bindings[launch.inputs[1].operand.binding].name == "y");
  for (const Input& input : launch.inputs) {
    CHECK(input.kind == Input::Kind::kRead);
    CHECK(input.operand.variadic);
  }
  REQUIRE(launch.outputs.size() == 1);
  CHECK(launch.outputs[0].aliased_input == -1);  // out is covered by hl.tile(out.size())
  CHECK(launch.captures.empty());
  REQUIRE(launch.cost.flops.size() == 1);
  CHECK(launch.cost.flops[0].count == 1);
  CHECK(launch.loads.size() == 2);
  CHECK(launch.stores.size() == 1);
}

TEST_CASE("bias_relu: a 2-D grid, a rank-1 bias viewed as (1, n), block-rule roles") {
  KernelBuilder b = testing::bias_relu_kernel();
  const KernelPlan plan = plan_of(b);
  REQUIRE(plan.launches.size() == 1);
  const Launch& launch = plan.launches[0];
  CHECK_FALSE(launch.variadic);
  REQUIRE(launch.grid.size() == 2);
  CHECK(launch.grid[0].role == AxisRole::kSublane);
  CHECK(launch.grid[1].role == AxisRole::kLane);
  CHECK_FALSE(launch.grid[1].flat);  // x's blocks have tiled rows
  // tile_m lands on axis 0 of x and of out; tile_n on the last axis of x, bias and out.
  CHECK(launch.grid[0].uses.size() == 2);
  CHECK(launch.grid[1].uses.size() == 3);

  REQUIRE(launch.inputs.size() == 2);
  const Operand& bias = launch.inputs[1].operand;
  CHECK(b.kernel().bindings[bias.binding].name == "bias");
  CHECK(bias.reshaped);
  REQUIRE(bias.view.size() == 2);
  CHECK(bias.view[0].kind == ViewAxis::Kind::kUnit);
  CHECK(bias.view[0].squeezed);
  CHECK(bias.view[1].kind == ViewAxis::Kind::kTile);
  CHECK(bias.view[1].role == AxisRole::kLane);
  CHECK(bias.kernel_rank() == 1);

  const Operand& x = launch.inputs[0].operand;
  CHECK_FALSE(x.reshaped);
  CHECK(x.view[0].role == AxisRole::kSublane);
  REQUIRE(launch.outputs.size() == 1);
  CHECK(launch.outputs[0].aliased_input == -1);
  REQUIRE(launch.cost.flops.size() == 1);
  CHECK(launch.cost.flops[0].count == 2);  // add, relu
}

TEST_CASE("rows: hl.grid scalar index on the second-to-last axis gets a unit axis") {
  KernelBuilder b = testing::rows_kernel();
  const KernelPlan plan = plan_of(b);
  const Launch& launch = plan.launches.at(0);
  REQUIRE(launch.inputs.size() == 2);
  const Operand& x = launch.inputs[0].operand;
  // (m, n) viewed as (m, 1, n) with blocks (None, None, n).
  REQUIRE(x.view.size() == 3);
  CHECK(x.view[0].kind == ViewAxis::Kind::kScalar);
  CHECK(x.view[0].squeezed);
  CHECK(x.view[1].kind == ViewAxis::Kind::kUnit);
  CHECK(x.view[1].squeezed);
  CHECK(x.view[2].kind == ViewAxis::Kind::kFull);
  CHECK(x.view[2].role == AxisRole::kLane);
  CHECK(x.reshaped);
  // w[None, :]: the None axis is part of the kernel's view.
  const Operand& w = launch.inputs[1].operand;
  REQUIRE(w.view.size() == 2);
  CHECK(w.view[0].kind == ViewAxis::Kind::kUnit);
  CHECK_FALSE(w.view[0].squeezed);
  CHECK(w.kernel_rank() == 2);
  // zeros_like(x) written for every i in range(m): no aliased input needed.
  CHECK(launch.outputs.at(0).aliased_input == -1);
  REQUIRE(launch.captures.size() == 1);
  CHECK(launch.captures[0].kind == Capture::Kind::kValue);
  CHECK(b.kernel().bindings[launch.captures[0].binding].name == "scale");
  CHECK(launch.program_ids.empty());  // i is used only in indices
}

TEST_CASE("an initialised output written only in part is passed in aliased") {
  KernelBuilder b("first_rows");
  const int x = b.param("x", ir::Type::tensor(2));
  const int k = b.param("k", ir::Type::scalar(ir::TypeKind::kInt));
  const int out = b.empty_like("out", x, 2, ir::IntImm::make(0, {}));
  const int g = b.tile_dim("i", b.ref(k), -1);
  const int i = b.bind("i", ir::Type::scalar(ir::TypeKind::kInt), ir::Binding::Origin::kLoopVar);
  ir::ExprPtr row = b.load(x, {K::scalar(b.ref(i)), K::full()}, {ir::Dim::full(x, 1)}, 4);
  ir::ExprPtr value = b.binary(ir::BinaryOp::kAdd, row, b.ref(i));
  b.kernel().body.push_back(ir::TileLoop::make(
      {g}, {i}, {b.store(out, {K::scalar(b.ref(i)), K::full()}, value, 4)}, b.line(3)));
  const KernelPlan plan = plan_of(b);
  const Launch& launch = plan.launches.at(0);
  REQUIRE(launch.inputs.size() == 2);
  CHECK(launch.inputs[1].kind == Input::Kind::kAliasedUnread);
  CHECK(launch.outputs.at(0).aliased_input == 1);
  CHECK(launch.outputs.at(0).alias_reason == "initialised");
  REQUIRE(launch.program_ids.count(i) == 1);  // i is also a value: pl.program_id(0)
  CHECK(launch.program_ids.at(i) == 0);
}

TEST_CASE("a read of the output before it is written goes through an aliased input") {
  KernelBuilder b("accumulate");
  const int acc = b.param("acc", ir::Type::tensor(2));
  const int x = b.param("x", ir::Type::tensor(2));
  const int m = b.unpack_shape({"m", "n"}, acc, 2);
  const int tm = b.tile_dim("tile_m", b.ref(m), 0);
  const int tn = b.tile_dim("tile_n", b.ref(m + 1), 1);
  const int vm = b.bind("tile_m", ir::Type::tile({tm}, false), ir::Binding::Origin::kLoopVar);
  const int vn = b.bind("tile_n", ir::Type::tile({tn}, false), ir::Binding::Origin::kLoopVar);
  const std::vector<ir::Dim> dims = {ir::Dim::tile(tm), ir::Dim::tile(tn)};
  ir::ExprPtr sum = b.binary(ir::BinaryOp::kAdd, b.load(acc, {K::tile(tm), K::tile(tn)}, dims, 4),
                             b.load(x, {K::tile(tm), K::tile(tn)}, dims, 4));
  b.kernel().body.push_back(ir::TileLoop::make(
      {tm, tn}, {vm, vn}, {b.store(acc, {K::tile(tm), K::tile(tn)}, sum, 4)}, b.line(3)));
  const KernelPlan plan = plan_of(b);
  const Launch& launch = plan.launches.at(0);
  REQUIRE(launch.inputs.size() == 2);
  CHECK(launch.inputs[0].kind == Input::Kind::kAliasedRead);
  CHECK(launch.inputs[0].output == 0);
  CHECK(launch.outputs.at(0).aliased_input == 0);
  CHECK(launch.outputs.at(0).alias_reason == "read");
}

TEST_CASE("stores into one element of the last axis pick it from whole rows") {
  KernelBuilder b("last_store");
  const int x = b.param("x", ir::Type::tensor(1));
  const int m = b.unpack_shape({"m"}, x, 2);
  const int out = b.param("out", ir::Type::tensor(2));
  const int tm = b.tile_dim("tile_m", b.ref(m), 0);
  const int vm = b.bind("tile_m", ir::Type::tile({tm}, false), ir::Binding::Origin::kLoopVar);
  ir::ExprPtr row = b.load(x, {K::tile(tm)}, {ir::Dim::tile(tm)}, 4);
  b.kernel().body.push_back(
      ir::TileLoop::make({tm}, {vm},
                         {b.store(out, {K::tile(tm), K::scalar(ir::IntImm::make(0, {}))}, row, 4),
                          b.store(out, {K::tile(tm), K::scalar(ir::IntImm::make(3, {}))}, row, 5)},
                         b.line(3)));
  const KernelPlan plan = plan_of(b);
  REQUIRE(plan.launches.size() == 1);
  const Launch& launch = plan.launches[0];
  REQUIRE(launch.outputs.size() == 1);  // both stores share one output
  const Output& output = launch.outputs[0];
  CHECK(output.copies_in);
  REQUIRE(output.operand.view.size() == 2);
  CHECK(output.operand.view[0].kind == ViewAxis::Kind::kTile);
  CHECK(output.operand.view[1].kind == ViewAxis::Kind::kFull);
  CHECK(output.operand.view[1].picked);
  CHECK(output.revisiting_dims.empty());  // each block of rows is its own
  // `out` is a parameter: its old contents come in through the alias, copied at each step.
  REQUIRE(output.aliased_input >= 0);
  CHECK(output.alias_reason == "partly written, copied in");
  CHECK(launch.inputs[static_cast<size_t>(output.aliased_input)].kind == Input::Kind::kAliasedRead);
  CHECK(launch.stores.size() == 2);
}

TEST_CASE("a rank-polymorphic loop over another tensor's shape checks the shape it writes") {
  {
    KernelBuilder b("other_shape");
    const int x = b.param("x", ir::Type::tensor(-1));
    const int out = b.param("out", ir::Type::tensor(-1));
    const ir::ExprPtr shape =
        ir::Call::make(ir::Intrinsic::kShapeOf, {b.ref(x)}, ir::Type::shape(-1), {});
    const int t = b.tile_dim("tile", shape, 0, /*variadic=*/true);
    const int v = b.bind("tile", ir::Type::tile({t}, true), ir::Binding::Origin::kLoopVar);
    const std::vector<ir::Dim> dims = {ir::Dim::variadic(t)};
    b.kernel().body.push_back(ir::TileLoop::make(
        {t}, {v}, {b.store(out, {K::variadic(t)}, b.load(x, {K::variadic(t)}, dims, 4), 4)},
        b.line(3)));
    // Checked while JAX traces to have x's shape, so the loop covers it: not aliased, no mask.
    const KernelPlan plan = plan_of(b);
    const Output& output = plan.launches.at(0).outputs.at(0);
    CHECK(output.checked_loop_shape);
    CHECK(output.aliased_input < 0);
    CHECK(output.masked_axes.empty());
  }
}

TEST_CASE("hl.tile(a, b): masked stores only where old values must survive") {
  SECTION("an empty output needs no mask") {
    KernelBuilder b = testing::shifted_kernel(nullptr);
    const KernelPlan plan = plan_of(b);
    const Launch& launch = plan.launches.at(0);
    CHECK(launch.grid.at(0).partial);
    CHECK(launch.outputs.at(0).aliased_input == -1);
    CHECK(launch.outputs.at(0).masked_axes.empty());
    CHECK(launch.captures.empty());
  }
  SECTION("a zeros output is read back and masked") {
    KernelBuilder b = testing::shifted_kernel(ir::IntImm::make(0, {}));
    const KernelPlan plan = plan_of(b);
    const Launch& launch = plan.launches.at(0);
    CHECK(launch.grid.at(0).partial);
    const Output& out = launch.outputs.at(0);
    CHECK(out.masked_axes == std::vector<int>{1});  // the (1, n) view's lane axis
    CHECK(out.alias_reason == "masked");
    REQUIRE(out.aliased_input == 1);
    CHECK(launch.inputs[1].kind == Input::Kind::kAliasedRead);
    // The kernel gets the block size and the end (x.size(0): x's shape) for the mask.
    REQUIRE(launch.captures.size() == 2);
    CHECK(launch.captures[0].kind == Capture::Kind::kBlock);
    CHECK(launch.captures[1].kind == Capture::Kind::kShape);
  }
}

TEST_CASE("the pipeline runs the passes in order and dumps after one") {
  KernelBuilder b = testing::bias_relu_kernel();
  CHECK(pipeline_pass_names() ==
        std::vector<std::string_view>{"unswitch-tensor-ifs", "inline-index-scalars",
                                      "refuse-block-positions", "plan-launches", "schedule"});
  PipelineOptions options;
  options.dump_after = "plan-launches";
  std::string dumped;
  options.dump = [&](std::string_view pass, std::string_view text) {
    dumped += std::string(pass) + ":\n" + std::string(text);
  };
  DiagnosticEngine diags;
  std::optional<PipelineResult> result = run_pipeline(b.module(), options, diags);
  REQUIRE(result);
  CHECK(result->plans.size() == 1);
  CHECK(result->timings.size() == 5);
  CHECK(dumped.find("plan-launches:\nkernel bias_relu") == 0);
  // bias's length is not known to be n: tile_n may not cover its axis exactly
  CHECK(dumped.find("launch 0: grid [tile_m sublane, tile_n lane partial]") != std::string::npos);
  CHECK(dumped.find("input 1: bias view [1 squeezed sublane, tile_n lane] reshaped (read)") !=
        std::string::npos);
}

}  // namespace
}  // namespace helionc::passes

namespace helionc::passes {
namespace {

TEST_CASE("a scalar on the last axis: a lane-aligned column window, selected in the kernel") {
  // for tile_m in hl.tile(m): out[tile_m] = x[tile_m, 0] + x[tile_m, j]   (j a host int)
  KernelBuilder b("columns");
  const int x = b.param("x", ir::Type::tensor(2));
  const int j = b.param("j", ir::Type::scalar(ir::TypeKind::kInt));
  const int m = b.unpack_shape({"m", "n"}, x, 2);
  const int out = b.param("out", ir::Type::tensor(1));
  const int tm = b.tile_dim("tile_m", b.ref(m), 0);
  const int vm = b.bind("tile_m", ir::Type::tile({tm}, false), ir::Binding::Origin::kLoopVar);
  ir::ExprPtr first =
      b.load(x, {K::tile(tm), K::scalar(ir::IntImm::make(0, {}))}, {ir::Dim::tile(tm)}, 4);
  ir::ExprPtr other = b.load(x, {K::tile(tm), K::scalar(b.ref(j))}, {ir::Dim::tile(tm)}, 4);
  b.kernel().body.push_back(ir::TileLoop::make(
      {tm}, {vm}, {b.store(out, {K::tile(tm)}, b.binary(ir::BinaryOp::kAdd, first, other), 4)},
      b.line(3)));
  const KernelPlan plan = plan_of(b);
  const Launch& launch = plan.launches.at(0);
  REQUIRE(launch.inputs.size() == 3);  // one operand per column, then out's old contents
  for (int c = 0; c < 2; ++c) {
    const Operand& op = launch.inputs[c].operand;
    REQUIRE(op.view.size() == 2);
    CHECK(op.view[0].kind == ViewAxis::Kind::kTile);
    CHECK(op.view[0].role == AxisRole::kSublane);
    CHECK(op.view[1].kind == ViewAxis::Kind::kColumn);
    CHECK_FALSE(op.view[1].squeezed);  // the kernel sees the window and selects the column
    CHECK(op.view[1].role == AxisRole::kLane);
    CHECK(op.view[1].array_axis == 1);
    CHECK_FALSE(op.reshaped);
    CHECK_FALSE(op.smem);
  }
  // j is used in the kernel (the column within its window): captured.
  CHECK(std::any_of(launch.captures.begin(), launch.captures.end(), [&](const Capture& c) {
    return c.kind == Capture::Kind::kValue && c.binding == j;
  }));
  const std::string dump = print_plan(b.kernel(), plan);
  CHECK(dump.find("x view [tile_m sublane, column 0@1 lane]") != std::string::npos);
  CHECK(dump.find("x view [tile_m sublane, column j@1 lane]") != std::string::npos);
}

TEST_CASE("an hl.grid index on the last axis is a program id in the kernel") {
  // for i in hl.grid(k): out[i, :] = x[:, i]
  KernelBuilder b("grid_columns");
  const int x = b.param("x", ir::Type::tensor(2));
  const int k = b.param("k", ir::Type::scalar(ir::TypeKind::kInt));
  const int out = b.param("out", ir::Type::tensor(2));
  const int g = b.tile_dim("i", b.ref(k), -1);
  const int i = b.bind("i", ir::Type::scalar(ir::TypeKind::kInt), ir::Binding::Origin::kLoopVar);
  ir::ExprPtr column = b.load(x, {K::full(), K::scalar(b.ref(i))}, {ir::Dim::full(x, 0)}, 4);
  b.kernel().body.push_back(ir::TileLoop::make(
      {g}, {i}, {b.store(out, {K::scalar(b.ref(i)), K::full()}, column, 4)}, b.line(3)));
  const KernelPlan plan = plan_of(b);
  const Launch& launch = plan.launches.at(0);
  const Operand& op = launch.inputs.at(0).operand;
  REQUIRE(op.view.size() == 2);
  CHECK(op.view[0].kind == ViewAxis::Kind::kFull);
  CHECK(op.view[1].kind == ViewAxis::Kind::kColumn);
  REQUIRE(launch.program_ids.count(i) == 1);
}

TEST_CASE("tensors read only as scalars go to SMEM whole") {
  // for tile_m in hl.tile(m): out[tile_m] = x[tile_m] * scale[0] + table[1, 2]
  KernelBuilder b("scaled");
  const int x = b.param("x", ir::Type::tensor(1));
  const int scale = b.param("scale", ir::Type::tensor(1));
  const int table = b.param("table", ir::Type::tensor(2));
  const int m = b.unpack_shape({"m"}, x, 2);
  const int out = b.empty_like("out", x, 3);
  const int tm = b.tile_dim("tile_m", b.ref(m), 0);
  const int vm = b.bind("tile_m", ir::Type::tile({tm}, false), ir::Binding::Origin::kLoopVar);
  ir::ExprPtr row = b.load(x, {K::tile(tm)}, {ir::Dim::tile(tm)}, 4);
  ir::ExprPtr s0 = b.load(scale, {K::scalar(ir::IntImm::make(0, {}))}, {}, 4);
  ir::ExprPtr s1 = b.load(scale, {K::scalar(ir::IntImm::make(1, {}))}, {}, 4);
  ir::ExprPtr t = b.load(
      table, {K::scalar(ir::IntImm::make(1, {})), K::scalar(ir::IntImm::make(2, {}))}, {}, 4);
  ir::ExprPtr value = b.binary(ir::BinaryOp::kAdd, b.binary(ir::BinaryOp::kMul, row, s0),
                               b.binary(ir::BinaryOp::kAdd, s1, t));
  b.kernel().body.push_back(
      ir::TileLoop::make({tm}, {vm}, {b.store(out, {K::tile(tm)}, value, 4)}, b.line(4)));
  const KernelPlan plan = plan_of(b);
  const Launch& launch = plan.launches.at(0);
  REQUIRE(launch.inputs.size() == 3);  // x, scale (both reads), table
  CHECK_FALSE(launch.inputs[0].operand.smem);
  CHECK(launch.inputs[1].operand.binding == scale);
  CHECK(launch.inputs[1].operand.smem);
  CHECK(launch.inputs[1].operand.view.empty());
  CHECK(launch.inputs[2].operand.smem);
  CHECK(launch.loads.size() == 4);
  const std::string dump = print_plan(b.kernel(), plan);
  CHECK(dump.find("input 1: scale smem whole (read)") != std::string::npos);

  SECTION("a tensor also read with a tile stays in VMEM") {
    KernelBuilder c("mixed");
    const int y = c.param("y", ir::Type::tensor(1));
    const int n = c.unpack_shape({"n"}, y, 2);
    const int o = c.empty_like("o", y, 3);
    const int tn = c.tile_dim("tile_n", c.ref(n), 0);
    const int vn = c.bind("tile_n", ir::Type::tile({tn}, false), ir::Binding::Origin::kLoopVar);
    ir::ExprPtr tile = c.load(y, {K::tile(tn)}, {ir::Dim::tile(tn)}, 4);
    ir::ExprPtr first = c.load(y, {K::scalar(ir::IntImm::make(0, {}))}, {}, 4);
    c.kernel().body.push_back(ir::TileLoop::make(
        {tn}, {vn}, {c.store(o, {K::tile(tn)}, c.binary(ir::BinaryOp::kSub, tile, first), 4)},
        c.line(4)));
    const KernelPlan p = plan_of(c);
    const Launch& l = p.launches.at(0);
    REQUIRE(l.inputs.size() == 2);
    CHECK_FALSE(l.inputs[1].operand.smem);
    // y[0] on a rank-1 array: a (1, window) view with the column selected in the kernel.
    REQUIRE(l.inputs[1].operand.view.size() == 2);
    CHECK(l.inputs[1].operand.view[1].kind == ViewAxis::Kind::kColumn);
  }
}

}  // namespace
}  // namespace helionc::passes

namespace helionc::passes {
namespace {

// embedding: for tile_b, tile_e in hl.tile([b, e]): out[tile_b, tile_e] = w[ids[tile_b], tile_e]
struct GatherKernel {
  KernelBuilder b{"embedding"};
  int ids = -1, w = -1, out = -1, tb = -1, te = -1, vb = -1, ve = -1;
  ir::ExprPtr index;

  GatherKernel() {
    ids = b.param("ids", ir::Type::tensor(1, ir::ScalarType::kInt32));
    w = b.param("w", ir::Type::tensor(2));
    const int n = b.unpack_shape({"n"}, ids, 2);
    const int e = b.unpack_shape({"v", "e"}, w, 3) + 1;
    out = b.param("out", ir::Type::tensor(2));
    tb = b.tile_dim("tile_b", b.ref(n), 0);
    te = b.tile_dim("tile_e", b.ref(e), 1);
    vb = b.bind("tile_b", ir::Type::tile({tb}, false), ir::Binding::Origin::kLoopVar);
    ve = b.bind("tile_e", ir::Type::tile({te}, false), ir::Binding::Origin::kLoopVar);
    index = b.load(ids, {K::tile(tb)}, {ir::Dim::tile(tb)}, 4);
  }
  ir::IndexItem gather() const {
    ir::IndexItem item;
    item.kind = ir::IndexItem::Kind::kGather;
    item.scalar = index;
    return item;
  }
};

TEST_CASE("gathers keep the gathered axis whole; the indices are an operand of their own") {
  GatherKernel g;
  ir::ExprPtr rows =
      g.b.load(g.w, {g.gather(), K::tile(g.te)}, {ir::Dim::tile(g.tb), ir::Dim::tile(g.te)}, 4);
  g.b.kernel().body.push_back(
      ir::TileLoop::make({g.tb, g.te}, {g.vb, g.ve},
                         {g.b.store(g.out, {K::tile(g.tb), K::tile(g.te)}, rows, 4)}, g.b.line(4)));
  const KernelPlan plan = plan_of(g.b);
  const Launch& launch = plan.launches.at(0);
  REQUIRE(launch.inputs.size() >= 2);
  CHECK(launch.inputs[0].operand.binding == g.ids);  // walked first: the index
  const Operand& w = launch.inputs[1].operand;
  CHECK(w.binding == g.w);
  REQUIRE(w.view.size() == 2);
  CHECK(w.view[0].kind == ViewAxis::Kind::kFull);
  CHECK(w.view[0].gather == g.index);
  CHECK(w.view[0].role == AxisRole::kSublane);
  CHECK(w.view[1].kind == ViewAxis::Kind::kTile);
  const std::string dump = print_plan(g.b.kernel(), plan);
  CHECK(dump.find("w view [:0 gather load ids[tile_b] or dma with input 3 sublane, tile_e lane]") !=
        std::string::npos);
}

TEST_CASE("a row gather may copy its rows by DMA: the indices whole in SMEM, a trace-time choice") {
  GatherKernel g;
  ir::ExprPtr rows =
      g.b.load(g.w, {g.gather(), K::tile(g.te)}, {ir::Dim::tile(g.tb), ir::Dim::tile(g.te)}, 4);
  g.b.kernel().body.push_back(
      ir::TileLoop::make({g.tb, g.te}, {g.vb, g.ve},
                         {g.b.store(g.out, {K::tile(g.tb), K::tile(g.te)}, rows, 4)}, g.b.line(4)));
  const KernelPlan plan = plan_of(g.b);
  const Launch& launch = plan.launches.at(0);
  // ids (VMEM, for the one-hot path), w, out's old contents, then ids whole in SMEM.
  REQUIRE(launch.inputs.size() == 4);
  CHECK(launch.inputs[1].operand.view[0].dma_ids == 3);
  CHECK(launch.inputs[1].operand.view[1].dma_ids == -1);
  const Input& ids = launch.inputs[3];
  CHECK(ids.operand.binding == g.ids);
  CHECK(ids.operand.smem);
  CHECK(ids.gather_ids_of == 1);
  CHECK(launch.inputs[0].gather_ids_of == -1);  // the VMEM indices of the one-hot path stay
  int by_dma = 0;
  std::set<int> blocks;
  for (const Capture& capture : launch.captures) {
    if (capture.kind == Capture::Kind::kGatherByDma) {
      ++by_dma;
      CHECK(capture.input == 1);
      CHECK(capture.binding == g.w);
    }
    if (capture.kind == Capture::Kind::kBlock) blocks.insert(capture.tile_dim);
  }
  CHECK(by_dma == 1);
  CHECK(blocks == std::set<int>{g.tb, g.te});  // the copies start at both blocks' positions
  const std::string dump = print_plan(g.b.kernel(), plan);
  CHECK(dump.find("input 3: ids smem whole (read, the indices of input 1's dma gather)") !=
        std::string::npos);
  CHECK(dump.find("capture gather_by_dma w") != std::string::npos);
}

TEST_CASE("gathers without a DMA form keep the one-hot path alone") {
  SECTION("a 1-D table") {
    KernelBuilder b("lookup");
    const int ids = b.param("ids", ir::Type::tensor(1, ir::ScalarType::kInt32));
    const int w = b.param("w", ir::Type::tensor(1));
    const int n = b.unpack_shape({"n"}, ids, 2);
    const int out = b.param("out", ir::Type::tensor(1));
    const int tb = b.tile_dim("tile_b", b.ref(n), 0);
    const int vb = b.bind("tile_b", ir::Type::tile({tb}, false), ir::Binding::Origin::kLoopVar);
    ir::IndexItem gather;
    gather.kind = ir::IndexItem::Kind::kGather;
    gather.scalar = b.load(ids, {K::tile(tb)}, {ir::Dim::tile(tb)}, 4);
    ir::ExprPtr value = b.load(w, {gather}, {ir::Dim::tile(tb)}, 4);
    b.kernel().body.push_back(
        ir::TileLoop::make({tb}, {vb}, {b.store(out, {K::tile(tb)}, value, 4)}, b.line(4)));
    const KernelPlan plan = plan_of(b);  // kept alive: `launch` points into it
    const Launch& launch = plan.launches.at(0);
    REQUIRE(launch.inputs.size() >= 2);
    CHECK(launch.inputs[1].operand.binding == w);
    for (const Input& input : launch.inputs) {
      CHECK(input.gather_ids_of == -1);
      for (const ViewAxis& axis : input.operand.view) CHECK(axis.dma_ids == -1);
    }
  }
  SECTION("indices of a float array") {
    GatherKernel g;
    KernelBuilder& b = g.b;
    const int fids = b.param("fids", ir::Type::tensor(1, ir::ScalarType::kFloat32));
    ir::IndexItem gather;
    gather.kind = ir::IndexItem::Kind::kGather;
    gather.scalar = b.load(fids, {K::tile(g.tb)}, {ir::Dim::tile(g.tb)}, 4);
    ir::ExprPtr rows =
        b.load(g.w, {gather, K::tile(g.te)}, {ir::Dim::tile(g.tb), ir::Dim::tile(g.te)}, 4);
    b.kernel().body.push_back(
        ir::TileLoop::make({g.tb, g.te}, {g.vb, g.ve},
                           {b.store(g.out, {K::tile(g.tb), K::tile(g.te)}, rows, 4)}, b.line(4)));
    const KernelPlan plan = plan_of(b);  // kept alive: `launch` points into it
    const Launch& launch = plan.launches.at(0);
    REQUIRE(launch.inputs.size() >= 2);
    for (const Input& input : launch.inputs) {
      CHECK(input.gather_ids_of == -1);
      for (const ViewAxis& axis : input.operand.view) CHECK(axis.dma_ids == -1);
    }
  }
}

TEST_CASE("a scatter keeps the gathered axis whole in a block the index steps share") {
  GatherKernel g;
  ir::ExprPtr value =
      g.b.load(g.w, {K::tile(g.tb), K::tile(g.te)}, {ir::Dim::tile(g.tb), ir::Dim::tile(g.te)}, 4);
  g.b.kernel().body.push_back(
      ir::TileLoop::make({g.tb, g.te}, {g.vb, g.ve},
                         {g.b.store(g.out, {g.gather(), K::tile(g.te)}, value, 4)}, g.b.line(4)));
  const KernelPlan plan = plan_of(g.b);
  const Launch& launch = plan.launches.at(0);
  REQUIRE(launch.outputs.size() == 1);
  const Output& output = launch.outputs[0];
  CHECK(output.copies_in);
  REQUIRE(output.operand.view.size() == 2);
  CHECK(output.operand.view[0].kind == ViewAxis::Kind::kFull);
  CHECK(output.operand.view[0].gather != nullptr);
  // The steps along the indices' tile write into one block of rows.
  CHECK(output.revisiting_dims == std::vector<int>{0});
  CHECK(output.aliased_input >= 0);
}

TEST_CASE("gathers the backend cannot do are precise diagnostics") {
  SECTION("a gather with another scalar index") {
    GatherKernel g;
    ir::ExprPtr value =
        g.b.load(g.w, {g.gather(), K::scalar(ir::IntImm::make(0, {}))}, {ir::Dim::tile(g.tb)}, 4);
    g.b.kernel().body.push_back(ir::TileLoop::make(
        {g.tb}, {g.vb}, {g.b.store(g.out, {K::tile(g.tb), K::full()}, value, 4)}, g.b.line(4)));
    CHECK(errors_of(g.b) ==
          "gathering from `w` together with `None` or an integer index of its last axis is not "
          "supported yet; index its other axes with tiles, `:` or slices and index the gathered "
          "value instead\n");
  }
}

}  // namespace
}  // namespace helionc::passes

namespace helionc::passes {
namespace {

TEST_CASE("a gather from a flat view at tile.index * n + col reads whole rows and picks") {
  // logits_flat = logits.view(-1)
  // for tile_n in hl.tile(n):
  //     flat = tile_n.index * v + labels[tile_n]
  //     losses[tile_n] = hl.load(logits_flat, [flat])
  KernelBuilder b("pick");
  const int logits = b.param("logits", ir::Type::tensor(2));
  const int labels = b.param("labels", ir::Type::tensor(1, ir::ScalarType::kInt32));
  const int n = b.unpack_shape({"n", "v"}, logits, 2);
  const int v = n + 1;
  const int flat_view = b.bind("logits_flat", ir::Type::tensor(1), ir::Binding::Origin::kHost);
  const ir::ExprPtr shape = ir::TupleExpr::make({ir::IntImm::make(-1, {})}, ir::Type::shape(1), {});
  b.kernel().body.push_back(ir::Let::make(
      {flat_view},
      ir::Call::make(ir::Intrinsic::kReshape, {b.ref(logits), shape}, ir::Type::tensor(1), {}),
      b.line(3)));
  const int losses = b.param("losses", ir::Type::tensor(1));
  const int tn = b.tile_dim("tile_n", b.ref(n), 0);
  const int vn = b.bind("tile_n", ir::Type::tile({tn}, false), ir::Binding::Origin::kLoopVar);
  const ir::Type index_type = ir::Type::tile_tensor({ir::Dim::tile(tn)}, ir::ScalarType::kInt32);
  const ir::ExprPtr rows =
      b.binary(ir::BinaryOp::kMul, ir::TileAttr::make(tn, ir::TileAttrKind::kIndex, index_type, {}),
               b.ref(v));
  const ir::ExprPtr label = b.load(labels, {K::tile(tn)}, {ir::Dim::tile(tn)}, 5);
  const int flat = b.bind("flat", index_type, ir::Binding::Origin::kDevice);
  ir::IndexItem gather;
  gather.kind = ir::IndexItem::Kind::kGather;
  gather.scalar = b.ref(flat);
  const ir::ExprPtr picked = b.load(flat_view, {gather}, {ir::Dim::tile(tn)}, 6);
  b.kernel().body.push_back(ir::TileLoop::make(
      {tn}, {vn},
      {ir::Let::make({flat}, b.binary(ir::BinaryOp::kAdd, rows, label), b.line(5)),
       b.store(losses, {K::tile(tn)}, picked, 6)},
      b.line(4)));
  const KernelPlan plan = plan_of(b);
  const Launch& launch = plan.launches.at(0);
  const Operand* table = nullptr;
  for (const Input& input : launch.inputs) {
    if (input.operand.binding == logits) table = &input.operand;
  }
  REQUIRE(table != nullptr);  // the 2-D array, not its flat view
  REQUIRE(table->view.size() == 2);
  CHECK(table->view[0].kind == ViewAxis::Kind::kTile);
  CHECK(table->view[0].tile_dim == tn);
  CHECK(table->view[1].kind == ViewAxis::Kind::kFull);
  REQUIRE(table->view[1].gather);
  CHECK(table->view[1].gather == label);  // one column per row: the label
}

}  // namespace
}  // namespace helionc::passes
