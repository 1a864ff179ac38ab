// The docstring of a kernel's public function: what `help(kernel)` shows a user of the module.
//
//   """Softmax over the last axis of ``x``.              <- the kernel's own docstring
//
//   Compiled by helionc from samples/softmax.py:12 for tpu-v7x.
//
//   Args:
//       x: jax.Array of rank 2.
//       interpret: None (the default) runs the kernels on a TPU and the interpreter
//           elsewhere, as the platform JAX lowers for decides; True forces the interpreter,
//           "tpu" simulates a TPU.
//
//   Returns:                                            <- the top-level `return`'s values
//       out: jax.Array of rank 2, of the shape of `x`.
//
//   Configs: 1 tuned entry for tpu-v7x, chosen by the call's shapes, and the default for
//   other shapes:
//       x=[4096, 4096]: block_sizes [8, 4096]
//
//   `reference_softmax` in this module computes the same in plain jnp: compare the two on
//   your inputs. `jax.grad` and `jax.vjp` differentiate it (a jax.custom_vjp whose
//   backward pass is jax.vjp of `reference_softmax`, recomputed from the inputs;
//   `jax.jvp` is not defined).                          <- when `differentiable`
//   """
#pragma once

#include <string>
#include <vector>

#include "autotune/config.h"
#include "backend/pallas/emit_context.h"
#include "ir/nodes.h"
#include "passes/shape_facts.h"

namespace helionc::backend::pallas {

// The docstring's lines, the first opening and the last closing the `"""` literal. `config`:
// the kernel's tuning config (--config), or null. `differentiable`: the function is the
// custom_vjp of host_printer.h. `facts` relate returned shapes to the parameters'.
std::vector<std::string> public_docstring(const EmitContext& context, const ir::Kernel& kernel,
                                          const passes::ShapeFacts& facts,
                                          const autotune::ConfigFile* config, bool differentiable);

}  // namespace helionc::backend::pallas
