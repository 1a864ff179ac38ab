#include "backend/pallas/pack_params.h"

#include <fmt/format.h>

#include "backend/pallas/names.h"

namespace helionc::backend::pallas {

std::optional<std::string> signature_name(const ir::Kernel& kernel, const ir::Param& param,
                                          const std::function<std::string(int)>& binding_name) {
  if (param.pack < 0) return binding_name(param.binding);
  if (!ir::opens_pack(kernel, param)) return std::nullopt;
  return safe_local_name(kernel.packs[param.pack].name);
}

std::vector<std::string> unpack_packs(const ir::Kernel& kernel,
                                      const std::function<std::string(int)>& binding_name) {
  std::vector<std::string> lines;
  for (const ir::ParamPack& pack : kernel.packs) {
    const std::string name = safe_local_name(pack.name);
    std::vector<std::string> elements;
    for (int element : pack.elements) elements.push_back(binding_name(element));
    // The messages are f-strings: `{` of the texts below must not start a field.
    const std::string who = fmt::format("`{}` of kernel `{}`", pack.name, kernel.name);
    if (pack.kind == ir::ParamPack::Kind::kDict) {
      const std::string keys = fmt::format("({},)", fmt::join(pack.keys, ", "));
      lines.push_back(fmt::format("if not isinstance({}, dict):", name));
      lines.push_back(
          fmt::format("    raise TypeError(f\"{} is a dict of arrays, not {{type({}).__name__}}\")",
                      who, name));
      lines.push_back(fmt::format("if not all(key in {} for key in {}):", name, keys));
      lines.push_back(
          fmt::format("    raise KeyError(f\"{} needs the keys {} (the kernel reads them), got "
                      "{{sorted({}, key=repr)}}\")",
                      who, fmt::join(pack.keys, ", "), name));
      for (size_t i = 0; i < elements.size(); ++i) {
        lines.push_back(fmt::format("{} = {}[{}]", elements[i], name, pack.keys[i]));
      }
      continue;
    }
    const size_t length = elements.size();
    lines.push_back(fmt::format("if not isinstance({}, (list, tuple)):", name));
    lines.push_back(fmt::format(
        "    raise TypeError(f\"{} is a list or tuple of arrays, not {{type({}).__name__}}\")", who,
        name));
    if (pack.exact) {
      lines.push_back(fmt::format("if len({}) != {}:", name, length));
      lines.push_back(fmt::format("    raise ValueError(f\"{} takes {} array{}, got {{len({})}}\")",
                                  who, length, length == 1 ? "" : "s", name));
    } else {
      lines.push_back(fmt::format("if len({}) < {}:", name, length));
      lines.push_back(fmt::format(
          "    raise ValueError(f\"{} takes at least {} array{} (the kernel reads {}[{}]), got "
          "{{len({})}}\")",
          who, length, length == 1 ? "" : "s", pack.name, length - 1, name));
    }
    for (size_t i = 0; i < length; ++i) {
      lines.push_back(fmt::format("{} = {}[{}]", elements[i], name, i));
    }
  }
  return lines;
}

}  // namespace helionc::backend::pallas
