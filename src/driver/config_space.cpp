#include "driver/config_space.h"

#include <fmt/format.h>

#include <algorithm>

#include "autotune/search.h"
#include "autotune/yaml_writer.h"
#include "driver/call_shapes.h"

namespace helionc::driver {

namespace {

namespace yw = autotune::yaml_write;

// A value as YAML: block sizes stay numbers, strategies are quoted.
void value(YAML::Emitter& out, const std::string& value) {
  const bool number = !value.empty() && std::all_of(value.begin(), value.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; });
  if (number) {
    out << value;
  } else {
    yw::string(out, value);
  }
}

std::string most_frequent(const std::map<std::string, size_t>& reasons) {
  const auto it =
      std::max_element(reasons.begin(), reasons.end(),
                       [](const auto& a, const auto& b) { return a.second < b.second; });
  return it->first;
}

// `- {value: ..., why: "..."}`
void value_and_why(YAML::Emitter& out, const std::string& text, const std::string& why) {
  out << YAML::Flow << YAML::BeginMap;
  yw::key(out, "value");
  value(out, text);
  yw::key(out, "why");
  yw::string(out, why);
  out << YAML::EndMap;
}

void print_coordinate(const autotune::CoordinateStats& c, YAML::Emitter& out) {
  out << YAML::BeginMap;
  yw::key(out, "name");
  yw::string(out, c.name);
  yw::key(out, "dims");
  yw::string(out, c.dims);
  std::vector<const autotune::ValueStats*> legal, pruned, repeated;
  for (const autotune::ValueStats& v : c.values) {
    if (v.legal > 0) {
      legal.push_back(&v);
    } else if (!v.refused.empty()) {
      pruned.push_back(&v);
    } else if (v.repeated > 0) {
      repeated.push_back(&v);
    }
  }
  yw::key(out, "legal");
  out << YAML::Flow << YAML::BeginSeq;
  for (const autotune::ValueStats* v : legal) value(out, v->value);
  out << YAML::EndSeq;
  yw::key(out, "pruned");
  if (pruned.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const autotune::ValueStats* v : pruned)
    value_and_why(out, v->value, most_frequent(v->refused));
  out << YAML::EndSeq;
  if (!repeated.empty()) {
    yw::key(out, "same_schedule_as_another");
    out << YAML::Flow << YAML::BeginSeq;
    for (const autotune::ValueStats* v : repeated) value(out, v->value);
    out << YAML::EndSeq;
  }
  if (!c.not_applicable.empty()) {
    yw::key(out, "not_applicable");
    out << YAML::BeginSeq;
    for (const auto& [strategy, why] : c.not_applicable) value_and_why(out, strategy, why);
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;
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
  YAML::Emitter out;
  yw::setup(out);
  yw::comment(out,
              "helionc --emit config-space: per call, the values the search judges legal and "
              "those it prunes");
  out << YAML::BeginMap;
  yw::key(out, "target");
  yw::string(out, input.target->name);
  yw::key(out, "kernels");
  out << YAML::BeginSeq;
  for (size_t k = 0; k < module.kernels.size(); ++k) {
    const ir::Kernel& kernel = module.kernels[k];
    const autotune::KernelSearch search(kernel, (*input.plans)[k], *input.target);
    out << YAML::BeginMap;
    yw::key(out, "kernel");
    yw::string(out, kernel.name);
    std::vector<const ShapeSet*> calls;
    for (const ShapeSet& set : *input.shapes) {
      std::string why;
      if (call_matches(kernel, set, why)) calls.push_back(&set);
    }
    yw::key(out, "calls");
    if (calls.empty()) out << YAML::Flow;
    out << YAML::BeginSeq;
    for (const ShapeSet* set : calls) {
      const autotune::CallResult r = search.search(call_values(kernel, *set), {});
      out << YAML::BeginMap;
      yw::key(out, "shapes");
      yw::string(out, set->text);
      yw::key(out, "points");
      out << r.space_size;
      yw::key(out, "schedules");
      out << r.evaluated;
      yw::key(out, "refused");
      out << r.pruned;
      yw::key(out, "exhaustive");
      out << r.exhaustive;
      yw::key(out, "tunables");
      if (r.coordinates.empty()) out << YAML::Flow;
      out << YAML::BeginSeq;
      for (const autotune::CoordinateStats& c : r.coordinates) print_coordinate(c, out);
      out << YAML::EndSeq;
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;
  return yw::document(out);
}

}  // namespace helionc::driver
