// A rebuilding visitor: each mutate method returns the node itself when none of its children
// changed, and a new node otherwise (Halide's IRMutator habit), so passes that touch little
// copy little.
#pragma once

#include "ir/nodes.h"

namespace helionc::ir {

class Mutator {
 public:
  virtual ~Mutator() = default;

  ExprPtr mutate(const ExprPtr& expr);
  StmtPtr mutate(const StmtPtr& stmt);
  Block mutate(const Block& block);
  Index mutate_index(const Index& index, bool* changed);

 protected:
#define HELIONC_EXPR(Name) virtual ExprPtr mutate_node(const Name& node, const ExprPtr& self);
#define HELIONC_STMT(Name) virtual StmtPtr mutate_node(const Name& node, const StmtPtr& self);
#include "ir/node_kinds.def"
};

}  // namespace helionc::ir
