// Prints one launch in the host wrapper: legal block sizes for the call's shapes, then the
// `pl.pallas_call(...)` with grid, BlockSpecs, aliases, compiler params and cost estimate,
// applied to the operands (reshaped into their views) and assigned to the outputs.
//
//   block_m = _legal_block(config["block_sizes"][0], m, "sublane")
//   block_n = _legal_block(config["block_sizes"][1], n, "lane")
//   out = _pallas_call(
//       _bias_gelu_kernel,
//       out_shape=out,
//       grid=(pl.cdiv(m, block_m), pl.cdiv(n, block_n)),
//       in_specs=[...],
//       ...
//   )(x, bias[None])
#pragma once

#include "backend/pallas/host_state.h"
#include "backend/pallas/launch_names.h"
#include "support/python_writer.h"

namespace helionc::backend::pallas {

// `stmt_index`: the loop's position among the kernel's top-level statements. `config`: the
// wrapper's config variable (empty when the kernel has no tunables). `launches`: how many
// launches the kernel has (for the call's name).
void print_launch(PythonWriter& out, HostState& host, const passes::Launch& launch,
                  const LaunchNames& names, size_t stmt_index, const std::string& config,
                  size_t launches);

}  // namespace helionc::backend::pallas
