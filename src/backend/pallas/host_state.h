// What the host-wrapper printers share while printing one public function: host expression
// printing, local names, readable sizes, and which arrays are still only declared
// (`jax.ShapeDtypeStruct`) rather than materialised.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "backend/pallas/emit_context.h"
#include "backend/pallas/names.h"
#include "passes/shape_facts.h"

namespace helionc::backend::pallas {

// Host code: names are the source's, queries on tensors are jnp attributes.
class HostContext : public ExprContext {
 public:
  HostContext(const ir::Kernel& kernel, DiagnosticEngine& diags) : kernel_(kernel), diags_(diags) {}
  PyExpr var(const ir::VarRef& ref) override;
  PyExpr load(const ir::Load& load) override;
  PyExpr tensor_query(ir::Intrinsic op, const ir::VarRef& tensor, const ir::ExprPtr& axis) override;
  std::optional<PyExpr> tunable(int index) override;
  // The wrapper's config local (HostState::local("config")).
  std::string config_name;

 private:
  const ir::Kernel& kernel_;
  DiagnosticEngine& diags_;
};

class HostState {
 public:
  HostState(EmitContext& context, const ir::Kernel& kernel, const passes::ShapeFacts& facts);

  EmitContext& context;
  const ir::Kernel& kernel;
  const passes::ShapeFacts& facts;

  // A host expression as Python.
  PyExpr expr(const ir::ExprPtr& e) { return exprs_.print(e); }
  std::string text(const ir::ExprPtr& e) { return exprs_.text(e); }
  bool ok() const { return exprs_.ok(); }

  // A local of the wrapper made from `base` (`config`, `block_m`), the same name every time it
  // is asked for with the same base, never a source name.
  std::string local(const std::string& base);
  // A temporary that is unique in the wrapper (never reused).
  std::string temporary(const std::string& base) { return scope_.fresh(base); }

  // The size of axis `axis` of `binding` for code placed before top-level statement `before`:
  // a source name bound to that size when there is one (`n`), else `x.shape[1]`.
  std::string size_text(int binding, int axis, size_t before) const;

  // Arrays that are declared but hold no values yet (an `empty` allocation before any launch
  // wrote it): `jax.ShapeDtypeStruct`s in the generated code.
  std::set<int> declared;

 private:
  struct SizeName {
    passes::SizeKey key;
    std::string name;
    size_t defined_at = 0;  // top-level statement index
  };

  HostContext host_context_;
  ExprPrinter exprs_;
  NameScope scope_;
  std::map<std::string, std::string> locals_;
  std::vector<SizeName> size_names_;
};

}  // namespace helionc::backend::pallas
