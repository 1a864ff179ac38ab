#include "passes/pipeline.h"

#include <fmt/format.h>

#include <chrono>

#include "ir/printer.h"
#include "ir/verifier.h"
#include "passes/inline_index_scalars.h"
#include "passes/plan_launches.h"
#include "passes/refuse_block_positions.h"
#include "passes/schedule.h"
#include "passes/unswitch_tensor_ifs.h"

namespace helionc::passes {

namespace {

struct State {
  ir::Module module;
  std::vector<KernelPlan> plans;
};

struct Pass {
  std::string_view name;
  // Returns false when it reported errors.
  bool (*run)(State& state, DiagnosticEngine& diags);
};

bool run_unswitch_tensor_ifs(State& state, DiagnosticEngine& diags) {
  return unswitch_tensor_ifs(state.module, diags);
}

bool run_inline_index_scalars(State& state, DiagnosticEngine& diags) {
  return inline_index_scalars(state.module, diags);
}

bool run_refuse_block_positions(State& state, DiagnosticEngine& diags) {
  return refuse_block_positions(state.module, diags);
}

bool run_plan_launches(State& state, DiagnosticEngine& diags) {
  bool ok = true;
  state.plans.clear();
  for (size_t k = 0; k < state.module.kernels.size(); ++k) {
    std::optional<KernelPlan> plan = plan_launches(state.module, static_cast<int>(k), diags);
    if (!plan) {
      ok = false;
      continue;
    }
    state.plans.push_back(std::move(*plan));
  }
  return ok;
}

bool run_schedule(State& state, DiagnosticEngine&) {
  for (KernelPlan& plan : state.plans) schedule_kernel(state.module.kernels[plan.kernel], plan);
  return true;
}

// The pipeline, in order. Later issues add passes here (masks for inner loops, pipelining).
constexpr Pass kPasses[] = {
    {"unswitch-tensor-ifs", run_unswitch_tensor_ifs},
    {"inline-index-scalars", run_inline_index_scalars},
    {"refuse-block-positions", run_refuse_block_positions},
    {"plan-launches", run_plan_launches},
    {"schedule", run_schedule},
};

bool verify(const ir::Module& module, std::string_view after, DiagnosticEngine& diags) {
  bool ok = true;
  for (const ir::Kernel& kernel : module.kernels) {
    for (const std::string& problem : ir::verify_kernel(kernel)) {
      diags.error(DiagnosticKind::kInternal, {},
                  after.empty() ? problem : fmt::format("after pass `{}`: {}", after, problem));
      ok = false;
    }
  }
  return ok;
}

}  // namespace

std::vector<std::string_view> pipeline_pass_names() {
  std::vector<std::string_view> names;
  for (const Pass& pass : kPasses) names.push_back(pass.name);
  return names;
}

std::string dump_state(const ir::Module& module, const std::vector<KernelPlan>& plans) {
  std::string text = ir::print_module(module);
  for (const KernelPlan& plan : plans) {
    text += "\n" + print_plan(module.kernels[plan.kernel], plan);
  }
  return text;
}

std::optional<PipelineResult> run_pipeline(ir::Module module, const PipelineOptions& options,
                                           DiagnosticEngine& diags) {
  State state{std::move(module), {}};
  if (options.verify && !verify(state.module, "", diags)) return std::nullopt;
  PipelineResult result;
  for (const Pass& pass : kPasses) {
    const auto start = std::chrono::steady_clock::now();
    const bool ok = pass.run(state, diags);
    const auto stop = std::chrono::steady_clock::now();
    result.timings.push_back(
        {pass.name, std::chrono::duration<double, std::milli>(stop - start).count()});
    if (!ok) return std::nullopt;
    if (options.verify && !verify(state.module, pass.name, diags)) return std::nullopt;
    if (options.dump && (options.dump_after == "all" || options.dump_after == pass.name)) {
      options.dump(pass.name, dump_state(state.module, state.plans));
    }
  }
  result.module = std::move(state.module);
  result.plans = std::move(state.plans);
  return result;
}

}  // namespace helionc::passes
