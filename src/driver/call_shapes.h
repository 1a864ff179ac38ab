// Calls of a kernel with concrete shapes (`--shapes`, a config entry's `shapes:`/`dtypes:`):
// whether a call fits a kernel's tensor parameters, and the host values it gives. Shared by
// the commands that account launches for concrete shapes (`--estimate`; later `--autotune`).
#pragma once

#include <string>
#include <vector>

#include "autotune/config.h"
#include "driver/shapes.h"
#include "ir/nodes.h"
#include "passes/host_values.h"

namespace helionc::driver {

struct TensorParam {
  std::string name;
  int binding = -1;
  int rank = -1;
  bool optional = false;
};

// The kernel's tensor parameters, in order.
std::vector<TensorParam> tensor_params(const ir::Kernel& kernel);

// Whether `set` is a call of `kernel`: every name a tensor parameter with its rank, every
// parameter that is not optional given. Sets `why` when it is not.
bool call_matches(const ir::Kernel& kernel, const ShapeSet& set, std::string& why);

// The host values of the call (its tensors by binding).
passes::HostValues call_values(const ir::Kernel& kernel, const ShapeSet& set);

// A config entry's shapes as a call; `dtypes_assumed` is set when the entry gives no dtype for
// some tensor (float32 is assumed, as the module would match any dtype).
ShapeSet entry_call(const ir::Kernel& kernel, const autotune::ShapeEntry& entry,
                    bool& dtypes_assumed);

}  // namespace helionc::driver
