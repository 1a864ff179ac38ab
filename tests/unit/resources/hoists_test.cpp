// Loop-invariant values computed once before an inner loop (passes/plan_hoists.h): every
// spelling of attention's `q * qk_scale`, chains of invariant work, and what must stay in the
// loop (a value of the loop's tile, of a carried value, a load of an array the loop stores, a
// random draw); nothing moves under `grid` and `unroll`; the VMEM accounting counts what moved.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "compiled_kernel.h"
#include "ir/printer.h"
#include "passes/plan_hoists.h"
#include "passes/vmem_formula.h"

namespace helionc {
namespace {

using Names = std::vector<std::string>;

// What moves out of the first inner loop: a `let`'s names, or `part <expr>` for a part of a
// statement.
Names hoisted(const Compiled& compiled, const passes::LaunchSchedule& schedule) {
  Names names;
  if (schedule.hoisted.empty()) return names;
  for (const passes::HoistedValue& value : schedule.hoisted.front()) {
    if (value.let == nullptr) {
      names.push_back("part " + ir::print_expr(compiled.kernel(), value.expr));
      continue;
    }
    for (int target : value.let->targets) names.push_back(compiled.kernel().bindings[target].name);
  }
  return names;
}

// Whether the schedule's first inner loop computes its invariant values before it.
bool hoists(const passes::LaunchSchedule& schedule) {
  const passes::LoopStrategy s = schedule.strategies.front();
  return s == passes::LoopStrategy::kForiLoop || s == passes::LoopStrategy::kEmitPipeline;
}

TEST_CASE("attention's scaled queries are computed once before the key loop where it streams") {
  const Compiled attention = compile_sample("attention");
  REQUIRE(attention.launch().schedules.size() == 4);
  for (const passes::LaunchSchedule& schedule : attention.launch().schedules) {
    INFO(passes::loop_strategy_name(schedule.strategies.front()));
    CHECK(hoisted(attention, schedule) == (hoists(schedule) ? Names{"q_scaled"} : Names{}));
  }
  CHECK_FALSE(passes::hoists_invariants(passes::LoopStrategy::kGrid));
  CHECK(passes::hoists_invariants(passes::LoopStrategy::kForiLoop));
  CHECK(passes::hoists_invariants(passes::LoopStrategy::kEmitPipeline));
  CHECK_FALSE(passes::hoists_invariants(passes::LoopStrategy::kUnroll));
}

// An online softmax over key blocks whose scores are written `SCORES` (one spelling per test).
std::string attention_with(const std::string& scores, const std::string& extra = "") {
  return R"(@helion.kernel(static_shapes=True)
def attn(q_in: torch.Tensor, k_in: torch.Tensor, v_in: torch.Tensor) -> torch.Tensor:
    m_dim = q_in.size(0)
    n_dim = k_in.size(0)
    head_dim = hl.specialize(q_in.size(-1))
    out = torch.empty_like(q_in)
    qk_scale = 0.125 * 1.44269504
    for tile_m in hl.tile(m_dim):
        m_i = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        l_i = torch.full_like(m_i, 1.0)
        q = q_in[tile_m, :]
        acc = torch.zeros_like(q, dtype=torch.float32)
        for tile_n in hl.tile(n_dim):
            k = k_in[tile_n, :]
)" + extra +
         "            qk = " + scores + R"(
            m_ij = torch.maximum(m_i, torch.amax(qk, -1))
            p = torch.exp2(qk - m_ij[:, None])
            alpha = torch.exp2(m_i - m_ij)
            l_i = l_i * alpha + torch.sum(p, -1)
            v = v_in[tile_n, :]
            acc = acc * alpha[:, None] + hl.dot(p.to(v.dtype), v)
            m_i = m_ij
        out[tile_m, :] = (acc / l_i[:, None]).to(out.dtype)
    return out
)";
}

TEST_CASE("every spelling of an invariant product moves, inlined ones under a name of their own") {
  struct Case {
    std::string extra;
    std::string scores;
    Names moved;
  };
  const std::vector<Case> cases = {
      {"            q_scaled = q * qk_scale\n",
       "hl.dot(q_scaled, k.T, out_dtype=torch.float32)",
       {"q_scaled"}},
      {"", "hl.dot(q * qk_scale, k.T, out_dtype=torch.float32)", {}},
      {"", "hl.dot(torch.mul(q, qk_scale), k.T, out_dtype=torch.float32)", {}},
      // A chain: each link reads the one before.
      {"            q32 = q.to(torch.float32)\n            q_scaled = (q32 * "
       "qk_scale).to(q.dtype)\n",
       "hl.dot(q_scaled, k.T, out_dtype=torch.float32)",
       {"q32", "q_scaled"}},
  };
  for (const Case& c : cases) {
    const std::string source = attention_with(c.scores, c.extra);
    INFO(source);
    const Compiled compiled = compile(source.c_str());
    for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
      INFO(passes::loop_strategy_name(schedule.strategies.front()));
      const Names names = hoisted(compiled, schedule);
      if (!hoists(schedule)) {
        CHECK(names.empty());
      } else if (!c.moved.empty()) {
        CHECK(names == c.moved);
      } else {
        // The product inlined in the dot's operand: one part, the scaling.
        REQUIRE(names.size() == 1);
        CHECK(names.front().rfind("part ", 0) == 0);
      }
    }
  }
}

// Values that must stay in the loop: each spelling's `keep` is computed at every step.
TEST_CASE("values of the loop's tile, of carried values, of stored arrays and draws stay") {
  const std::vector<std::string> staying = {
      // the loop's tile
      "            keep = q * k.sum(0)[None, :]\n",
      "            keep = q * tile_n.begin\n",
      // a carried value
      "            keep = q * m_i[:, None]\n",
      // a random draw
      "            keep = q * torch.rand_like(q)\n",
  };
  for (const std::string& extra : staying) {
    const std::string source =
        attention_with("hl.dot(keep.to(k.dtype), k.T, out_dtype=torch.float32)", extra);
    INFO(source);
    const Compiled compiled = compile(source.c_str());
    for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
      INFO(passes::loop_strategy_name(schedule.strategies.front()));
      for (const std::string& name : hoisted(compiled, schedule)) CHECK(name != "keep");
    }
  }
}

// A load of an array the loop stores into reads the step before's store: it stays, and so
// does what is computed from it.
const char* kReadsWhatItStores = R"(@helion.kernel()
def running(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.zeros([m, n], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        for tile_n in hl.tile(n):
            prev = out[tile_m, :] * 2.0
            scale = w[tile_m, :] * 3.0
            out[tile_m, :] = prev + scale + x[tile_m, tile_n].sum(-1, keepdim=True)
    return out
)";

TEST_CASE("a load of an array the loop stores stays; one of an array it only reads moves") {
  const Compiled compiled = compile(kReadsWhatItStores);
  for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
    INFO(passes::loop_strategy_name(schedule.strategies.front()));
    CHECK(hoisted(compiled, schedule) == (hoists(schedule) ? Names{"scale"} : Names{}));
  }
}

TEST_CASE("the VMEM accounting counts a hoisted value once, held across the loop") {
  const Compiled attention = compile_sample("attention");
  for (const passes::LaunchSchedule& schedule : attention.launch().schedules) {
    INFO(passes::loop_strategy_name(schedule.strategies.front()));
    const Expected<passes::SizeExpr> bytes =
        passes::hoisted_values_vmem(attention.kernel(), attention.launch(), schedule);
    REQUIRE(bytes);
    CHECK(bytes->is_constant(0) == !hoists(schedule));
  }
}

TEST_CASE("the accounting counts hoisted work once per query block, not per key step") {
  const Compiled attention = compile_sample("attention");
  // q, k, v [1, 1, 512, 128] bf16 at 1 x 128 x 128 blocks: 4 key steps per query block.
  const passes::ConcreteTensor qkv{{1, 1, 512, 128}, ir::ScalarType::kBFloat16};
  const auto values = attention.values({qkv, qkv, qkv});
  const auto flops = [&](passes::LoopStrategy strategy) {
    passes::LaunchChoices choices;
    choices.block_sizes = {1, 128, 128};
    choices.strategies = {strategy};
    return account(attention, values, choices).flops;
  };
  // q * qk_scale: 512 x 128 products per key step under grid and unroll, once under fori_loop
  // and emit_pipeline. (grid and emit_pipeline hold lane rows, fori_loop and unroll do not:
  // each pair differs in that work alike.)
  const int64_t scaling = 512 * 128;
  CHECK(flops(passes::LoopStrategy::kUnroll) - flops(passes::LoopStrategy::kForiLoop) ==
        3 * scaling);
  CHECK(flops(passes::LoopStrategy::kGrid) - flops(passes::LoopStrategy::kEmitPipeline) ==
        3 * scaling);
}

}  // namespace
}  // namespace helionc
