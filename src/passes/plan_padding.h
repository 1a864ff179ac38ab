// What the padding of a partial block holds, and where it is masked (issue 9). Part of the
// schedule pass.
//
// A block that runs past the end of its loop's range holds padding: whatever VMEM held, for a
// BlockSpec block, or zeros for an input padded on the host. Padding never reaches a result
// except through an operation along that tile dimension (a reduction, a product contracted over
// it): elementwise work on padding lands in padding, and stores of padding are dropped. So its
// value may be replaced by anything at any point, and only those operations need it to be their
// identity: -inf for a max, 0 for a sum or a product's operand.
//
// The pass follows what the padding holds through the body (an abstract value per expression and
// tile dimension: garbage, 0, 1, -inf, +inf or some finite value) and, where an operation needs
// a mask, masks the local the operand reads at its definition rather than at the operation, once:
// later uses then see the identity and many need no mask of their own. An online softmax masks
// its scores with -inf once; exp(-inf - max) = 0 then serves its sum and its product, and only
// the value block of the product is masked again (its padding may be NaN, and 0 * NaN is NaN).
//
// Assumptions, as for plan_skips: the kernel's inputs are finite and no arithmetic overflows,
// so a value computed from finite values by +, -, *, exp, max, min, sums and products is finite.
#pragma once

#include <memory>
#include <utility>
#include <vector>

#include "passes/schedule.h"

namespace helionc::ir {
struct Expr;
enum class Intrinsic;
}  // namespace helionc::ir

namespace helionc::passes {

struct Launch;

// Whether a reduction `op` along a dimension can read `padding` as it is.
bool reduction_accepts(ir::Intrinsic op, Pad padding);

// Whether a product contracted along a dimension can read its operands' padding as it is
// (each one's own flag: false where that operand must be masked to zero).
std::pair<bool, bool> product_accepts(Pad lhs, Pad rhs);

// The fill a masked operand of `op` gets (a reduction, or kDot for a product's operands).
Pad identity_of(ir::Intrinsic op);

// What expressions of a launch's body hold in the padding of each tile dimension under one
// schedule, the schedule's definition masks applied. The printer asks it at every mask site;
// the schedule pass uses it to choose the definition masks.
class PaddingFacts {
 public:
  PaddingFacts(const ir::Kernel& kernel, const Launch& launch, const LaunchSchedule& schedule);
  ~PaddingFacts();
  PaddingFacts(const PaddingFacts&) = delete;
  PaddingFacts& operator=(const PaddingFacts&) = delete;

  // What `expr` holds past the range of its axis `axis` (a tile dimension's axis of its type);
  // kGarbage when that is not known.
  Pad padding(const ir::Expr& expr, int axis);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// The definition masks of `schedule` (LaunchSchedule::definition_masks), chosen as above.
std::vector<DefinitionMask> plan_definition_masks(const ir::Kernel& kernel, const Launch& launch,
                                                  const LaunchSchedule& schedule);

}  // namespace helionc::passes
