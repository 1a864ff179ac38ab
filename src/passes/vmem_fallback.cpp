#include "passes/vmem_fallback.h"

namespace helionc::passes {

std::optional<std::vector<LoopStrategy>> vmem_fallback(const Launch& launch,
                                                       const std::vector<LoopStrategy>& chosen) {
  std::vector<LoopStrategy> fallback = chosen;
  bool changed = false;
  for (size_t i = 0; i < chosen.size() && i < launch.inner_loops.size(); ++i) {
    if (chosen[i] != LoopStrategy::kUnroll) continue;
    for (LoopStrategy candidate : kUnrollFallbacks) {
      if (launch.inner_loops[i].reason_against(candidate).empty()) {
        fallback[i] = candidate;
        changed = true;
        break;
      }
    }
  }
  if (!changed) return std::nullopt;
  return fallback;
}

}  // namespace helionc::passes
