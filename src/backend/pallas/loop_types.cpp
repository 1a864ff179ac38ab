#include "backend/pallas/loop_types.h"

#include <fmt/format.h>

#include <algorithm>

#include "backend/pallas/py_expr.h"

namespace helionc::backend::pallas {

using passes::LoopStrategy;

KernelLoopTypes::KernelLoopTypes(const ir::Kernel& kernel, const passes::KernelPlan& plan)
    : kernel_(kernel), plan_(plan) {
  for (const passes::Launch& launch : plan.launches) {
    for (size_t i = 0; i < launch.inner_loops.size(); ++i) {
      loops_.push_back({launch.index, static_cast<int>(i)});
    }
  }
}

std::optional<LoopTypes> KernelLoopTypes::resolve(const std::vector<std::string>& requested,
                                                  SourceRange range, DiagnosticEngine& diags) {
  if (requested.size() > loops_.size()) {
    diags.error(DiagnosticKind::kConfigSchema, range,
                loops_.empty()
                    ? fmt::format("`pallas_loop_type` is given but kernel `{}` has no inner "
                                  "loops",
                                  kernel_.name)
                    : fmt::format("`pallas_loop_type` has {} entries but kernel `{}` has {} "
                                  "inner loop{}",
                                  requested.size(), kernel_.name, loops_.size(),
                                  loops_.size() == 1 ? "" : "s"));
    return std::nullopt;
  }
  LoopTypes types;
  bool ok = true;
  for (size_t i = 0; i < loops_.size(); ++i) {
    const passes::InnerLoop& loop =
        plan_.launches[loops_[i].launch].inner_loops[static_cast<size_t>(loops_[i].inner)];
    if (i >= requested.size()) {
      // The default: a grid axis where that works (Pallas pipelines the loop's blocks), else
      // the operands stay resident in VMEM.
      types.push_back(loop.reason_against(LoopStrategy::kGrid).empty() ? LoopStrategy::kGrid
                                                                       : LoopStrategy::kUnroll);
      continue;
    }
    const std::optional<LoopStrategy> strategy = passes::parse_loop_strategy(requested[i]);
    if (!strategy) {
      diags.error(DiagnosticKind::kConfigSchema, range,
                  fmt::format("unknown `pallas_loop_type` `{}`; expected unroll, emit_pipeline, "
                              "fori_loop or grid",
                              requested[i]));
      ok = false;
      continue;
    }
    if (const std::string& reason = loop.reason_against(*strategy); !reason.empty()) {
      diags
          .error(DiagnosticKind::kConfigSchema, range,
                 fmt::format("`pallas_loop_type` entry {} asks for `{}`, which does not apply to "
                             "this inner loop: {}",
                             i, requested[i], reason))
          .note(loop.loop->range, "the inner loop");
      ok = false;
      continue;
    }
    types.push_back(*strategy);
  }
  if (!ok) return std::nullopt;
  if (std::find(resolved_.begin(), resolved_.end(), types) == resolved_.end()) {
    resolved_.push_back(types);
  }
  return types;
}

size_t KernelLoopTypes::first_loop(int launch) const {
  size_t first = 0;
  while (first < loops_.size() && loops_[first].launch < launch) ++first;
  return first;
}

std::vector<LoopTypes> KernelLoopTypes::variants(int launch) const {
  const size_t first = first_loop(launch);
  const size_t count = plan_.launches[launch].inner_loops.size();
  std::vector<LoopTypes> result;
  for (const LoopTypes& types : resolved_) {
    LoopTypes local(types.begin() + static_cast<std::ptrdiff_t>(first),
                    types.begin() + static_cast<std::ptrdiff_t>(first + count));
    if (std::find(result.begin(), result.end(), local) == result.end()) result.push_back(local);
  }
  if (result.empty()) result.emplace_back();
  return result;
}

std::string KernelLoopTypes::python_tuple(const LoopTypes& types) {
  std::vector<std::string> names;
  names.reserve(types.size());
  for (LoopStrategy type : types) {
    names.push_back(py_string(std::string(passes::loop_strategy_name(type))));
  }
  return py_tuple(names);
}

}  // namespace helionc::backend::pallas
