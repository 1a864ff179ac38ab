// A kernel's tuning configs as module data (product.md §2):
//
//   # Tuned configs of bias_gelu by the shapes and dtypes of (x, bias); other calls use the
//   default. _BIAS_GELU_CONFIGS = {
//       (((4096, 4096), (4096,)), ("float32", "float32")): {"block_sizes": (64, 512)},
//   }
//   _BIAS_GELU_DEFAULT = {"block_sizes": (None, None)}
//
// Keys are the tensor arguments' shapes and dtypes in parameter order (dtypes None when the
// YAML entry gives none: any dtype); `None` block sizes mean "the built-in default for the
// call's shapes" (prelude `_legal_block`). The prelude's `_select_config` does the lookup.
#pragma once

#include "autotune/config.h"
#include "backend/pallas/loop_types.h"
#include "ir/nodes.h"
#include "support/diagnostics.h"
#include "support/python_writer.h"

namespace helionc::backend::pallas {

// Checks `config` (may be null: built-in defaults only) against the kernel and prints the two
// tables. Returns false after reporting a config that does not fit the kernel (kConfigSchema
// at the YAML's file:line:col). Every config names the strategy of each inner loop
// (`"pallas_loop_type": ("grid",)`); `loop_types` records the combinations used.
bool print_config_tables(PythonWriter& out, const ir::Kernel& kernel,
                         const autotune::ConfigFile* config, KernelLoopTypes& loop_types,
                         DiagnosticEngine& diags);

// "x.yaml (default, 2 shape entries)" for the module header; "the decorator's config" or
// "built-in defaults" without one.
std::string describe_config(const autotune::ConfigFile* config, const ir::Kernel& kernel);

}  // namespace helionc::backend::pallas
