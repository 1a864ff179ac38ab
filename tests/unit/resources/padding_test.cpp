// What the padding of partial blocks holds and where it is masked (passes/plan_padding.h): an
// online softmax masks its scores once and its value block once, under every strategy; a
// mask chosen for one reduction does not excuse another with a different identity; -inf minus
// a value that may be -inf is not -inf; an integer's lowest value is no -inf.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "compiled_kernel.h"
#include "ir/visitor.h"
#include "passes/plan_padding.h"

namespace helionc {
namespace {

using passes::Pad;

// "name along tile with fill" per definition mask, in the order chosen.
std::vector<std::string> masks(const Compiled& compiled, const passes::LaunchSchedule& schedule) {
  std::vector<std::string> result;
  for (const passes::DefinitionMask& mask : schedule.definition_masks) {
    result.push_back(compiled.kernel().bindings[mask.binding].name + " along " +
                     compiled.kernel().tile_dims[mask.tile_dim].name + " with " +
                     std::string(passes::pad_name(mask.fill)));
  }
  return result;
}

// The padding of the first operand of every call `op` of the launch body, in order.
std::vector<Pad> operand_padding(const Compiled& compiled, const passes::LaunchSchedule& schedule,
                                 ir::Intrinsic op) {
  passes::PaddingFacts facts(compiled.kernel(), compiled.launch(), schedule);
  std::vector<Pad> result;
  ir::for_each_expr(compiled.launch().tile_loop().body, [&](const ir::Expr& expr) {
    const auto* call = expr.as<ir::Call>();
    if (call == nullptr || call->op != op) return;
    const auto* axis = call->args[1]->as<ir::IntImm>();
    REQUIRE(axis != nullptr);
    result.push_back(facts.padding(*call->args[0], static_cast<int>(axis->value)));
  });
  return result;
}

// emit_pipeline and fori_loop copy zero-padded inputs (the host pads what they stream), so their
// loads' padding is already zero; under grid and unroll it is whatever VMEM held.
bool streams(const passes::LaunchSchedule& schedule) {
  const passes::LoopStrategy s = schedule.strategies.front();
  return s == passes::LoopStrategy::kEmitPipeline || s == passes::LoopStrategy::kForiLoop;
}

using Names = std::vector<std::string>;

TEST_CASE("the rules: a reduction reads its identity; a product needs one zero and one finite") {
  CHECK(passes::reduction_accepts(ir::Intrinsic::kSum, Pad::kZero));
  CHECK(passes::reduction_accepts(ir::Intrinsic::kMean, Pad::kZero));
  CHECK(passes::reduction_accepts(ir::Intrinsic::kAmax, Pad::kNegInf));
  CHECK(passes::reduction_accepts(ir::Intrinsic::kAmin, Pad::kPosInf));
  CHECK(passes::reduction_accepts(ir::Intrinsic::kProd, Pad::kOne));
  CHECK_FALSE(passes::reduction_accepts(ir::Intrinsic::kSum, Pad::kFinite));
  CHECK_FALSE(passes::reduction_accepts(ir::Intrinsic::kAmax, Pad::kZero));
  CHECK_FALSE(passes::reduction_accepts(ir::Intrinsic::kSum, Pad::kGarbage));
  using Flags = std::pair<bool, bool>;
  CHECK(passes::product_accepts(Pad::kZero, Pad::kFinite) == Flags{true, true});
  CHECK(passes::product_accepts(Pad::kOne, Pad::kZero) == Flags{true, true});
  CHECK(passes::product_accepts(Pad::kZero, Pad::kGarbage) == Flags{true, false});
  CHECK(passes::product_accepts(Pad::kZero, Pad::kNegInf) == Flags{true, false});
  CHECK(passes::product_accepts(Pad::kGarbage, Pad::kGarbage) == Flags{false, false});
}

TEST_CASE("an online softmax masks its scores with -inf and its value block with 0, once") {
  const Compiled attention = compile_sample("attention");
  REQUIRE(attention.launch().schedules.size() == 4);  // grid, unroll, emit_pipeline, fori_loop
  for (const passes::LaunchSchedule& schedule : attention.launch().schedules) {
    INFO(passes::loop_strategy_name(schedule.strategies.front()));
    CHECK(masks(attention, schedule) ==
          (streams(schedule) ? Names{"qk along tile_n with lowest"}
                             : Names{"qk along tile_n with lowest", "v along tile_n with 0"}));
    // The row max reads -inf; exp(-inf - max) leaves zeros for the row sum.
    CHECK(operand_padding(attention, schedule, ir::Intrinsic::kAmax) ==
          std::vector<Pad>{Pad::kNegInf});
    CHECK(operand_padding(attention, schedule, ir::Intrinsic::kSum) ==
          std::vector<Pad>{Pad::kZero});
  }
}

const char* kSumAndMax = R"(@helion.kernel()
def sum_and_max(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        total = hl.zeros([tile_m], dtype=torch.float32)
        top = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        for tile_n in hl.tile(n):
            v = x[tile_m, tile_n]
            total = total + v.sum(1)
            top = torch.maximum(top, torch.amax(v, 1))
        out[tile_m] = total + top
    return out
)";

TEST_CASE("a mask chosen for a sum does not serve a max") {
  const Compiled compiled = compile(kSumAndMax);
  for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
    // Zeros from the host serve the sum; the max masks its own operand then.
    CHECK(masks(compiled, schedule) ==
          (streams(schedule) ? Names{} : Names{"v along tile_n with 0"}));
    const std::vector<Pad> max_operand = operand_padding(compiled, schedule, ir::Intrinsic::kAmax);
    REQUIRE(max_operand.size() == 1);
    CHECK_FALSE(passes::reduction_accepts(ir::Intrinsic::kAmax, max_operand[0]));
  }
}

const char* kExpOfInfinities = R"(@helion.kernel()
def exp_of_infinities(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        low = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        total = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            v = x[tile_m, tile_n]
            top = torch.amax(v, 1)
            e = torch.exp(v - low[:, None])
            total = total + e.sum(1) + top
        out[tile_m] = total
    return out
)";

TEST_CASE("-inf minus a value that may be -inf is NaN, not -inf: the sum keeps a mask") {
  const Compiled compiled = compile(kExpOfInfinities);
  for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
    // `v` is masked with -inf for the max; `e` = exp(-inf - -inf) would be NaN (and exp(0 - -inf)
    // is +inf, from zeros): masked with 0.
    CHECK(masks(compiled, schedule) ==
          (streams(schedule) ? Names{"e along tile_n with 0"}
                             : Names{"v along tile_n with lowest", "e along tile_n with 0"}));
  }
}

const char* kIntegerMax = R"(@helion.kernel()
def integer_max(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        total = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            v = x[tile_m, tile_n].to(torch.int32)
            top = torch.amax(v, 1)
            total = total + torch.exp(v.to(torch.float32) - 1.0).sum(1) + top
        out[tile_m] = total
    return out
)";

TEST_CASE("an integer's lowest value does not become -inf when cast to a float") {
  const Compiled compiled = compile(kIntegerMax);
  for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
    CHECK(masks(compiled, schedule) ==
          (streams(schedule) ? Names{} : Names{"v along tile_n with lowest"}));
    const std::vector<Pad> sum_operand = operand_padding(compiled, schedule, ir::Intrinsic::kSum);
    REQUIRE(sum_operand.size() == 1);
    CHECK(sum_operand[0] == (streams(schedule) ? Pad::kFinite : Pad::kGarbage));
  }
}

}  // namespace
}  // namespace helionc
