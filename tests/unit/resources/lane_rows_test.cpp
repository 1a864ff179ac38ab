// Which row values a launch holds across 128 lanes (passes/plan_lane_rows.h): an online
// softmax's statistics in every spelling, where they are carried in VMEM scratch, and no value
// whose layout would not pay (carried in registers, never broadcast against a block, or mixed
// with a loaded row).
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "compiled_kernel.h"

namespace helionc {
namespace {

using RowNames = std::set<std::string>;

RowNames lane_rows(const Compiled& compiled, const passes::LaunchSchedule& schedule) {
  RowNames names;
  for (int binding : schedule.lane_rows) names.insert(compiled.kernel().bindings[binding].name);
  return names;
}

// The carried values whose VMEM scratch holds lane rows.
RowNames lane_row_scratch(const Compiled& compiled, const passes::LaunchSchedule& schedule) {
  RowNames names;
  for (const passes::ScratchBuffer& buffer : schedule.scratch) {
    if (!buffer.lane_rows) continue;
    const auto& loop =
        compiled.launch().inner_loops[static_cast<size_t>(buffer.inner_loop)].tile_loop();
    names.insert(compiled.kernel().bindings[loop.carried[buffer.carry].init].name);
  }
  return names;
}

bool carries_in_vmem(const passes::LaunchSchedule& schedule) {
  const passes::LoopStrategy s = schedule.strategies.front();
  return s == passes::LoopStrategy::kGrid || s == passes::LoopStrategy::kEmitPipeline;
}

TEST_CASE("an online softmax carried in VMEM scratch holds its statistics as lane rows") {
  const Compiled attention = compile_sample("attention");
  REQUIRE(attention.launch().schedules.size() == 4);
  for (const passes::LaunchSchedule& schedule : attention.launch().schedules) {
    // Carried in registers (`fori_loop`, `unroll`) the statistics keep one layout anyway.
    const bool vmem = carries_in_vmem(schedule);
    CHECK(lane_rows(attention, schedule) ==
          (vmem ? RowNames{"m_i", "l_i", "m_ij", "l_ij", "alpha"} : RowNames{}));
    CHECK(lane_row_scratch(attention, schedule) == (vmem ? RowNames{"m_i", "l_i"} : RowNames{}));
  }
}

// The maximum kept with keepdim, its unit axis dropped after (samples/causal_attention.py's
// spelling), and the sum written as a method.
const char* kKeepdimOnlineSoftmax = R"(@helion.kernel(static_shapes=True)
def keepdim_softmax(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        m_i = hl.full([tile_m], float("-inf"), dtype=torch.float32)
        l_i = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            s = x[tile_m, tile_n].to(torch.float32)
            m_new = torch.maximum(m_i.unsqueeze(1), torch.amax(s, -1, keepdim=True))
            p = torch.exp(s - m_new)
            m_new = m_new.squeeze(-1)
            l_i = l_i * torch.exp(m_i - m_new) + p.sum(-1)
            m_i = m_new
        for tile_n in hl.tile(n):
            s = x[tile_m, tile_n].to(torch.float32)
            out[tile_m, tile_n] = torch.exp(s - m_i[:, None]) / l_i[:, None]
    return out
)";

TEST_CASE("keepdim reductions and unit axes added or dropped keep lane rows") {
  const Compiled compiled = compile(kKeepdimOnlineSoftmax);
  for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
    CHECK(lane_rows(compiled, schedule) ==
          (carries_in_vmem(schedule) ? RowNames{"m_i", "l_i", "m_new"} : RowNames{}));
  }
}

// A row sum never broadcast against a block: lane rows would only add work.
const char* kUnbroadcastRowSums = R"(@helion.kernel()
def row_sums(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=torch.float32, device=x.device)
    for tile_m in hl.tile(m):
        total = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            total = total + x[tile_m, tile_n].sum(1)
        out[tile_m] = total
    return out
)";

// A row maximum combined with a row loaded from memory: the loaded row lives along lanes, so
// the maximum is not held across them.
const char* kBiasedRowMax = R"(@helion.kernel()
def biased_max(x: torch.Tensor, bias: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m, n], dtype=torch.float32, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        v = x[tile_m, tile_n]
        top = torch.amax(v, -1) + bias[tile_m]
        out[tile_m, tile_n] = v - top[:, None]
    return out
)";

TEST_CASE("row values whose layout would not pay stay as they are") {
  for (const char* source : {kUnbroadcastRowSums, kBiasedRowMax}) {
    const Compiled compiled = compile(source);
    for (const passes::LaunchSchedule& schedule : compiled.launch().schedules) {
      CHECK(lane_rows(compiled, schedule).empty());
    }
  }
}

}  // namespace
}  // namespace helionc
