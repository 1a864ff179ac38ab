#include "backend/pallas/launch_names.h"

#include <fmt/format.h>

#include "backend/pallas/names.h"
#include "ir/visitor.h"

namespace helionc::backend::pallas {

std::string binding_name(const ir::Kernel& kernel, int binding) {
  return safe_local_name(kernel.bindings[binding].name);
}

std::string let_targets(const ir::Kernel& kernel, const ir::Let& let) {
  std::vector<std::string> names;
  for (int target : let.targets) names.push_back(binding_name(kernel, target));
  if (let.unpack && names.size() == 1) return fmt::format("({},)", names[0]);
  return fmt::format("{}", fmt::join(names, ", "));
}

std::string block_name(const std::string& tile_dim_name) {
  if (tile_dim_name.starts_with("tile_") && tile_dim_name.size() > 5) {
    return "block_" + tile_dim_name.substr(5);
  }
  if (tile_dim_name == "tile") return "block";
  return "block_" + tile_dim_name;
}

LaunchNames name_launch(const ir::Kernel& kernel, const passes::Launch& launch,
                        std::string kernel_function) {
  LaunchNames names;
  names.kernel_function = std::move(kernel_function);
  NameScope scope;
  // Names the body itself binds or reads keep their source spelling.
  for (const ir::Binding& binding : kernel.bindings) {
    if (binding.origin == ir::Binding::Origin::kDevice ||
        binding.origin == ir::Binding::Origin::kLoopVar) {
      scope.reserve(safe_local_name(binding.name));
    }
  }
  for (const passes::Capture& capture : launch.captures) {
    if (capture.kind == passes::Capture::Kind::kValue) {
      scope.reserve(binding_name(kernel, capture.binding));
    }
  }
  for (const passes::Capture& capture : launch.captures) {
    const std::string base =
        capture.binding >= 0 ? binding_name(kernel, capture.binding) : std::string();
    switch (capture.kind) {
      case passes::Capture::Kind::kValue:
        names.captures.push_back(base);
        break;
      case passes::Capture::Kind::kDtype:
        names.captures.push_back(scope.fresh(base + "_dtype"));
        break;
      case passes::Capture::Kind::kShape:
        names.captures.push_back(scope.fresh(base + "_shape"));
        break;
      case passes::Capture::Kind::kBlock:
        names.captures.push_back(scope.fresh(block_name(kernel.tile_dims[capture.tile_dim].name)));
        break;
      case passes::Capture::Kind::kGatherByDma:
        names.captures.push_back(scope.fresh(base + "_by_dma"));
        break;
    }
  }
  for (const passes::Input& input : launch.inputs) {
    const std::string base = binding_name(kernel, input.operand.binding);
    names.inputs.push_back(scope.fresh(input.gather_ids_of >= 0 ? base + "_smem"
                                       : input.kind == passes::Input::Kind::kRead
                                           ? base + "_ref"
                                           : base + "_in_ref"));
  }
  for (const passes::Output& output : launch.outputs) {
    names.outputs.push_back(scope.fresh(binding_name(kernel, output.operand.binding) + "_ref"));
  }
  return names;
}

}  // namespace helionc::backend::pallas
