// Prints the kernel function of one launch: the loop body as Pallas code over refs.
//
//   def _bias_gelu_kernel(x_ref, bias_ref, out_ref):
//       v = x_ref[...] + bias_ref[...]  # samples/bias_gelu.py:19
//       ...
//       out_ref[...] = (0.5 * v * (1.0 + jnp.tanh(inner))).astype(out_ref.dtype)  # ...:22
//
// Every load reads the operand's whole block (`x_ref[...]`): the BlockSpec already selected the
// tile. Stores cast to the array's dtype (PyTorch semantics) unless the IR shows the value
// already has it.
#pragma once

#include "backend/pallas/emit_context.h"
#include "backend/pallas/launch_names.h"
#include "passes/shape_facts.h"
#include "support/python_writer.h"

namespace helionc::backend::pallas {

// Prints variant `variant` of the launch's kernel (LaunchNames::variants: the strategies of
// its inner loops). Returns false after reporting an error.
bool print_kernel_function(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                           const passes::ShapeFacts& facts, const passes::Launch& launch,
                           const LaunchNames& names, size_t variant);

}  // namespace helionc::backend::pallas
