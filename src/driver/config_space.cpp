#include "driver/config_space.h"

#include <fmt/format.h>

#include <algorithm>

#include "autotune/search.h"
#include "driver/call_shapes.h"
#include "support/quote.h"

namespace helionc::driver {

namespace {

// A value as YAML: block sizes stay numbers, strategies are quoted.
std::string yaml_value(const std::string& value) {
  const bool number = !value.empty() && std::all_of(value.begin(), value.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; });
  return number ? value : double_quoted(value);
}

std::string most_frequent(const std::map<std::string, size_t>& reasons) {
  const auto it =
      std::max_element(reasons.begin(), reasons.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  return it->first;
}

void print_coordinate(const autotune::CoordinateStats& c, std::string& out) {
  out += fmt::format("          - name: {}\n", double_quoted(c.name));
  out += fmt::format("            dims: {}\n", double_quoted(c.dims));
  std::vector<std::string> legal, repeated;
  std::string pruned;
  for (const autotune::ValueStats& v : c.values) {
    if (v.legal > 0) {
      legal.push_back(yaml_value(v.value));
    } else if (!v.refused.empty()) {
      pruned += fmt::format("              - {{value: {}, why: {}}}\n", yaml_value(v.value),
                            double_quoted(most_frequent(v.refused)));
    } else if (v.repeated > 0) {
      repeated.push_back(yaml_value(v.value));
    }
  }
  out += fmt::format("            legal: [{}]\n", fmt::join(legal, ", "));
  out += pruned.empty() ? "            pruned: []\n" : "            pruned:\n" + pruned;
  if (!repeated.empty()) {
    out += fmt::format("            same_schedule_as_another: [{}]\n", fmt::join(repeated, ", "));
  }
  if (!c.not_applicable.empty()) {
    out += "            not_applicable:\n";
    for (const auto& [strategy, why] : c.not_applicable) {
      out += fmt::format("              - {{value: {}, why: {}}}\n", double_quoted(strategy),
                         double_quoted(why));
    }
  }
}

}  // namespace

Expected<std::string> emit_config_space(const ReportInput& input) {
  const ir::Module& module = *input.module;
  for (const ShapeSet& set : *input.shapes) {
    std::string why;
    bool accepted = false;
    for (const ir::Kernel& kernel : module.kernels) {
      accepted = accepted || call_matches(kernel, set, why);
    }
    if (!accepted) return Error{fmt::format("--shapes call `{}`: {}", set.text, why)};
  }
  std::string out =
      "# helionc --emit config-space: per call, the values the search judges legal and those it "
      "prunes\n";
  out += fmt::format("target: {}\nkernels:\n", double_quoted(input.target->name));
  for (size_t k = 0; k < module.kernels.size(); ++k) {
    const ir::Kernel& kernel = module.kernels[k];
    const autotune::KernelSearch search(kernel, (*input.plans)[k], *input.target);
    out += fmt::format("  - kernel: {}\n", double_quoted(kernel.name));
    std::string calls;
    for (const ShapeSet& set : *input.shapes) {
      std::string why;
      if (!call_matches(kernel, set, why)) continue;
      const autotune::CallResult r = search.search(call_values(kernel, set), {});
      calls += fmt::format("      - shapes: {}\n", double_quoted(set.text));
      calls += fmt::format("        points: {}\n        schedules: {}\n        refused: {}\n",
                           r.space_size, r.evaluated, r.pruned);
      calls += fmt::format("        exhaustive: {}\n", r.exhaustive ? "true" : "false");
      calls += r.coordinates.empty() ? "        tunables: []\n" : "        tunables:\n";
      for (const autotune::CoordinateStats& c : r.coordinates) print_coordinate(c, calls);
    }
    out += calls.empty() ? "    calls: []\n" : "    calls:\n" + calls;
  }
  return out;
}

}  // namespace helionc::driver
