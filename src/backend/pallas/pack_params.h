// Parameters that are lists, tuples or dicts of tensors (ir::ParamPack) in the functions the
// backends print: the pack's place in the signature, and the lines that take it apart on entry
// (shared by the Pallas function and `reference_<kernel>`, so both check calls alike).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "ir/nodes.h"

namespace helionc::backend::pallas {

// The name `param` has in the signature: its own, the pack's for the pack's first element,
// or nullopt for the pack's other elements.
std::optional<std::string> signature_name(const ir::Kernel& kernel, const ir::Param& param,
                                          const std::function<std::string(int)>& binding_name);

// For each pack: a check of the value the caller passed (a list or tuple of the right length,
// a dict with the keys read), raising TypeError/ValueError/KeyError that names the kernel and
// the parameter, then one assignment per element.
std::vector<std::string> unpack_packs(const ir::Kernel& kernel,
                                      const std::function<std::string(int)>& binding_name);

}  // namespace helionc::backend::pallas
