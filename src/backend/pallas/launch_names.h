// The Python names of one launch, shared by the kernel-body printer and the host wrapper: the
// kernel function, its refs (`x_ref`, `out_ref`, `out_in_ref` for an aliased output's old
// contents) and its keyword-only captured values.
#pragma once

#include <string>
#include <vector>

#include "backend/pallas/loop_types.h"
#include "ir/nodes.h"
#include "ir/visitor.h"
#include "passes/launch_plan.h"

namespace helionc::backend::pallas {

struct LaunchNames {
  std::string kernel_function;  // `_add_kernel`
  // The inner loops' strategy combinations the configs use, each with its kernel function
  // (`_matmul_kernel_grid`; just `kernel_function` when there is one combination), and the
  // position of the launch's first inner loop in a config's `pallas_loop_type`.
  std::vector<LoopTypes> variants;
  std::vector<std::string> variant_functions;
  // Per variant: the variant it falls back to while JAX traces when it needs more VMEM than the
  // target has (passes/vmem_fallback.h), or -1. Fallbacks no config names are variants too.
  std::vector<int> fallbacks;
  size_t first_loop = 0;
  // When configs set `loop_orders` and the launch's own loop has several dimensions: the
  // keyword through which the kernel gets the grid's order, and which `loop_orders` entry it is.
  std::string loop_order;
  int loop_order_entry = -1;
  std::vector<std::string> inputs;    // ref names, per Launch::inputs
  std::vector<std::string> outputs;   // ref names, per Launch::outputs
  std::vector<std::string> captures;  // keyword names, per Launch::captures
};

LaunchNames name_launch(const ir::Kernel& kernel, const passes::Launch& launch,
                        std::string kernel_function);

// A binding's name in generated code (its source name, made safe).
std::string binding_name(const ir::Kernel& kernel, int binding);

// The left-hand side of a Let: `m`, `m, n`, or `(m,)` for a one-element unpacking.
std::string let_targets(const ir::Kernel& kernel, const ir::Let& let);

using ir::has_begin;  // ir/visitor.h

// The readable name of a tile dimension's block size: `tile_m` -> `block_m`, `i` -> `block_i`.
std::string block_name(const std::string& tile_dim_name);

}  // namespace helionc::backend::pallas
