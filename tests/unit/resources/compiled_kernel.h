// Shared by the resource and cost-model tests: a kernel compiled from source through the pass
// pipeline, its host values for concrete tensors, and the resources of its first launch.
#pragma once

#include <catch2/catch.hpp>

#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "autotune/targets.h"
#include "frontend/lowering_fixture.h"
#include "passes/host_values.h"
#include "passes/launch_resources.h"
#include "passes/pipeline.h"

namespace helionc {

inline constexpr int64_t KiB = 1024;
inline constexpr int64_t MiB = 1024 * KiB;

// A built-in target by name (`tpu-v5e`).
inline const autotune::TargetInfo& target(const char* name) {
  const autotune::TargetInfo* found = autotune::find_target(name);
  REQUIRE(found != nullptr);
  return *found;
}

// A matmul whose dtypes are known only from the call (several tests compile it).
inline constexpr const char* kMatmul = R"(@helion.kernel(static_shapes=True)
def matmul(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    m, k = x.size()
    k2, n = y.size()
    out = torch.empty([m, n], dtype=x.dtype, device=x.device)
    for tile_m, tile_n in hl.tile([m, n]):
        acc = hl.zeros([tile_m, tile_n], dtype=torch.float32)
        for tile_k in hl.tile(k):
            acc = torch.addmm(acc, x[tile_m, tile_k], y[tile_k, tile_n])
        out[tile_m, tile_n] = acc.to(x.dtype)
    return out
)";

struct Compiled {
  std::unique_ptr<testing::Lowered> lowered;
  std::optional<passes::PipelineResult> result;

  const ir::Kernel& kernel() const { return result->module.kernels.front(); }
  const passes::Launch& launch() const { return result->plans.front().launches.front(); }

  // The kernel's tensor parameters, in order, with these shapes and dtypes.
  passes::HostValues values(std::vector<passes::ConcreteTensor> tensors) const {
    std::map<int, passes::ConcreteTensor> args;
    size_t next = 0;
    for (const ir::Param& param : kernel().params) {
      if (kernel().bindings[param.binding].type.kind != ir::TypeKind::kTensor) continue;
      args[param.binding] = tensors.at(next++);
    }
    return passes::HostValues(kernel(), std::move(args));
  }
};

inline Compiled compile(const char* source) {
  Compiled compiled;
  compiled.lowered = testing::lower(source);
  INFO(compiled.lowered->errors());
  REQUIRE_FALSE(compiled.lowered->diags.has_errors());
  compiled.result =
      passes::run_pipeline(std::move(compiled.lowered->module), {}, compiled.lowered->diags);
  INFO(compiled.lowered->errors());
  REQUIRE(compiled.result);
  return compiled;
}

// samples/<name>.py compiled as a user's file (its own imports, no test prelude).
inline Compiled compile_sample(const std::string& name) {
  std::ifstream file(std::string(HELIONC_SOURCE_DIR) + "/samples/" + name + ".py");
  std::stringstream text;
  text << file.rdbuf();
  Compiled compiled;
  compiled.lowered = testing::lower(text.str(), /*with_prelude=*/false);
  INFO(compiled.lowered->errors());
  REQUIRE_FALSE(compiled.lowered->diags.has_errors());
  compiled.result =
      passes::run_pipeline(std::move(compiled.lowered->module), {}, compiled.lowered->diags);
  REQUIRE(compiled.result);
  return compiled;
}

inline passes::LaunchResources account(const Compiled& compiled, const passes::HostValues& values,
                                       const passes::LaunchChoices& choices) {
  auto resources = passes::account_launch(compiled.kernel(), compiled.launch(), values, choices);
  INFO((resources ? std::string() : resources.error()));
  REQUIRE(resources);
  return *resources;
}

}  // namespace helionc
