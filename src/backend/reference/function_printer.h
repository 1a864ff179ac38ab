// One kernel as a reference function: host code as it is written (views, allocations, asserts,
// returns), tile loops as one step over their whole range, `hl.grid` and `hl.static_range` as
// Python loops, stores as `out = out.at[...].set(...)`.
#pragma once

#include <optional>
#include <string>

#include "ir/nodes.h"
#include "support/source.h"

namespace helionc::backend::reference {

// Why a kernel has no reference: the construct, at its place.
struct Refusal {
  SourceRange range;
  std::string what;  // "`tile.id` (the block number)": completes "the reference cannot express"
};

struct PrintedFunction {
  std::string text;  // `def reference_<kernel>(...):` and its body (empty when refused)
  bool math = false;
  bool callables = false;  // needs templates/reference_callables.py.tmpl (and numpy)
  std::optional<Refusal> refusal;
};

// `source_path` names the file in source-line comments and assert messages.
PrintedFunction print_reference_function(const ir::Kernel& kernel, const std::string& source_path);

}  // namespace helionc::backend::reference
