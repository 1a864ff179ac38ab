// How an inner loop runs (`pallas_loop_type`, pallas-target.md §5).
#pragma once

#include <optional>
#include <string_view>

namespace helionc::passes {

enum class LoopStrategy { kUnroll, kEmitPipeline, kForiLoop, kGrid };
inline constexpr int kLoopStrategyCount = 4;
std::string_view loop_strategy_name(LoopStrategy strategy);  // "unroll", ...
std::optional<LoopStrategy> parse_loop_strategy(std::string_view name);

}  // namespace helionc::passes
