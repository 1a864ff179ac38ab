// Prints a kernel's public function: the kernel's signature plus `*, interpret=None`, the
// config lookup, and the host code as jnp with one `pl.pallas_call` per launch.
//
//   def bias_gelu(x: jax.Array, bias: jax.Array, *, interpret=None):
//       """...the kernel's docstring, its parameters, its configs (public_docstring.h)"""
//       config = _select_config(_BIAS_GELU_CONFIGS, _BIAS_GELU_DEFAULT, x, bias)
//       m, n = x.shape  # samples/bias_gelu.py:16
//       out = jax.ShapeDtypeStruct(x.shape, x.dtype)  # samples/bias_gelu.py:17
//       ...launch...
//       return out  # samples/bias_gelu.py:23
//
// `torch.empty*` allocations become `jax.ShapeDtypeStruct`s (the launch that writes them
// creates the array); initialised ones (`zeros`, `full`) become arrays passed in aliased, unless
// the first launch that touches them overwrites them completely.
#pragma once

#include <vector>

#include "backend/pallas/emit_context.h"
#include "backend/pallas/launch_names.h"
#include "passes/shape_facts.h"
#include "support/python_writer.h"

namespace helionc::backend::pallas {

// `names[i]` names `plan.launches[i]`. `config`: the kernel's --config, or null; with shape
// entries the function looks the call up in its config table (else it uses the default), and
// its docstring lists them (public_docstring.h). Returns false after reporting an error.
bool print_public_function(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                           const passes::KernelPlan& plan, const passes::ShapeFacts& facts,
                           const std::vector<LaunchNames>& names,
                           const autotune::ConfigFile* config);

}  // namespace helionc::backend::pallas
