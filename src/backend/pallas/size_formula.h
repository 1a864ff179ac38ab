// A VMEM formula (passes/vmem_formula.h) as Python: the module evaluates it while JAX traces
// (`_fit_vmem`), with the leaves named by the caller (the launch's block variables, `x.shape[1]`,
// `x.dtype`, `_load_buffers(config, 0)`). Integer arithmetic only, as in the accounting: `+`,
// `*`, `min`, `pl.cdiv`, `x if size <= n else 0` and `_vmem_bytes`
// (templates/helper_vmem_bytes.py.tmpl), which takes the dtype its kItemSize leaf names (or a
// number of bytes).
#pragma once

#include <functional>

#include "backend/pallas/py_expr.h"
#include "passes/vmem_formula.h"

namespace helionc::backend::pallas {

// `leaf` is called for kBlock, kAxisSize, kItemSize, kBuffers and kExtent nodes.
PyExpr print_size(const passes::SizeExpr& expr,
                  const std::function<PyExpr(const passes::SizeExpr& leaf)>& leaf);

}  // namespace helionc::backend::pallas
