#include "driver/call_shapes.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace helionc::driver {

std::vector<TensorParam> tensor_params(const ir::Kernel& kernel) {
  std::vector<TensorParam> tensors;
  for (const ir::Param& param : kernel.params) {
    const ir::Binding& binding = kernel.bindings[param.binding];
    if (binding.type.kind == ir::TypeKind::kTensor) {
      tensors.push_back(
          {ir::call_name(kernel, param), param.binding, binding.type.rank, binding.type.optional});
    }
  }
  return tensors;
}

bool call_matches(const ir::Kernel& kernel, const ShapeSet& set, std::string& why) {
  const std::vector<TensorParam> tensors = tensor_params(kernel);
  for (const TensorShape& tensor : set.tensors) {
    auto param = std::find_if(tensors.begin(), tensors.end(),
                              [&](const TensorParam& p) { return p.name == tensor.name; });
    if (param == tensors.end()) {
      std::vector<std::string> names;
      for (const TensorParam& p : tensors) names.push_back(p.name);
      why = fmt::format(
          "`{}` is not a tensor parameter of kernel `{}` ({})", tensor.name, kernel.name,
          names.empty() ? "no tensor parameters" : fmt::format("{}", fmt::join(names, ", ")));
      return false;
    }
    if (param->rank >= 0 && static_cast<size_t>(param->rank) != tensor.dims.size()) {
      why = fmt::format("`{}` has {} dimensions in kernel `{}`, but `{}` gives it {}", tensor.name,
                        param->rank, kernel.name, set.text, tensor.dims.size());
      return false;
    }
  }
  for (const TensorParam& param : tensors) {
    const bool given = std::any_of(set.tensors.begin(), set.tensors.end(),
                                   [&](const TensorShape& t) { return t.name == param.name; });
    if (!given && !param.optional) {
      why = fmt::format("`{}` gives no shape for `{}` of kernel `{}`", set.text, param.name,
                        kernel.name);
      return false;
    }
  }
  return true;
}

passes::HostValues call_values(const ir::Kernel& kernel, const ShapeSet& set) {
  std::map<int, passes::ConcreteTensor> args;
  for (const TensorShape& tensor : set.tensors) {
    for (const TensorParam& param : tensor_params(kernel)) {
      if (param.name == tensor.name) args[param.binding] = {tensor.dims, tensor.dtype};
    }
  }
  return passes::HostValues(kernel, std::move(args));
}

namespace {

ir::ScalarType dtype_named(const std::string& name) {
  for (ir::ScalarType type :
       {ir::ScalarType::kBool, ir::ScalarType::kUInt8, ir::ScalarType::kInt8,
        ir::ScalarType::kInt16, ir::ScalarType::kInt32, ir::ScalarType::kFloat8E4M3FN,
        ir::ScalarType::kFloat8E5M2, ir::ScalarType::kFloat16, ir::ScalarType::kBFloat16,
        ir::ScalarType::kFloat32}) {
    if (ir::dtype_name(type) == name) return type;
  }
  return ir::ScalarType::kFloat32;
}

}  // namespace

ShapeSet entry_call(const ir::Kernel& kernel, const autotune::ShapeEntry& entry,
                    bool& dtypes_assumed) {
  ShapeSet set;
  for (const TensorParam& param : tensor_params(kernel)) {
    auto shape = entry.shapes.find(param.name);
    if (shape == entry.shapes.end()) continue;
    TensorShape tensor;
    tensor.name = param.name;
    tensor.dims = shape->second;
    auto dtype = entry.dtypes.find(param.name);
    if (dtype != entry.dtypes.end()) {
      tensor.dtype = dtype_named(dtype->second);
    } else {
      dtypes_assumed = true;
    }
    set.tensors.push_back(std::move(tensor));
  }
  set.text = format_shape_set(set);
  return set;
}

}  // namespace helionc::driver
