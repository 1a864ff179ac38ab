// `[indices.size(0), *table.shape[1:]]` where `table`'s rank is not known yet at that point
// (an unannotated tensor parameter whose rank a later subscript fixes, `table[ids[tile], :, :,
// :]`). Python needs the whole list there, but helionc learns ranks as it reads: the list is
// lowered as a shape of unknown rank holding the shape it unpacks, and once the kernel is read
// (every rank it fixes known) each such list becomes the plain list of sizes it stands for
// (`table.size(1)`, `table.size(2)`, ...), so shape facts and allocations see ordinary sizes.
// A list whose unpacked shape's rank stays unknown is the precise "not supported yet" error at
// the `*`.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"
#include "ir/mutator.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

ExprPtr KernelLowering::defer_shape_splats(std::vector<ExprPtr> elements,
                                           std::vector<SourceRange> splats, SourceRange range) {
  ExprPtr list = ir::TupleExpr::make(std::move(elements), Type::shape(-1), range);
  deferred_splats_[list.get()] = std::move(splats);
  return list;
}

namespace {

// The sizes a shape of (then) unknown rank stands for, now that ranks are known: `x.shape`
// (kShapeOf) and literal slices of it (kShapeSlice); nullopt when its rank is still unknown.
std::optional<std::vector<ExprPtr>> shape_sizes(const ir::Kernel& kernel, const ExprPtr& shape) {
  const auto* call = shape->as<ir::Call>();
  if (call == nullptr) return std::nullopt;
  if (call->op == Intrinsic::kShapeOf) {
    const auto* tensor = call->args[0]->as<ir::VarRef>();
    if (tensor == nullptr) return std::nullopt;
    const ir::Binding& binding = kernel.bindings[tensor->binding];
    if (binding.type.kind != TypeKind::kTensor || !binding.type.rank_known()) return std::nullopt;
    std::vector<ExprPtr> sizes;
    const ExprPtr ref = ir::VarRef::make(tensor->binding, binding.type, call->range);
    for (int axis = 0; axis < binding.type.rank; ++axis) {
      sizes.push_back(ir::Call::make(Intrinsic::kSize, {ref, ir::IntImm::make(axis, call->range)},
                                     Type::scalar(TypeKind::kInt), call->range));
    }
    return sizes;
  }
  if (call->op != Intrinsic::kShapeSlice) return std::nullopt;
  std::optional<std::vector<ExprPtr>> all = shape_sizes(kernel, call->args[0]);
  if (!all) return std::nullopt;
  // Python's slice of a sequence of n elements, literal bounds (slice_trace_time_shape).
  const auto n = static_cast<int64_t>(all->size());
  const auto bound = [&](const ExprPtr& value, int64_t fallback) {
    const auto* imm = value->as<ir::IntImm>();
    if (imm == nullptr) return fallback;
    return std::clamp<int64_t>(imm->value < 0 ? imm->value + n : imm->value, 0, n);
  };
  const int64_t start = bound(call->args[1], 0);
  const int64_t stop = std::max(start, bound(call->args[2], n));
  return std::vector<ExprPtr>(all->begin() + start, all->begin() + stop);
}

class SplatResolver : public ir::Mutator {
 public:
  SplatResolver(const ir::Kernel& kernel,
                const std::map<const ir::Expr*, std::vector<SourceRange>>& deferred)
      : kernel_(kernel), deferred_(deferred) {}

  // The unpacks whose rank stayed unknown, and the allocations given a resolved shape.
  std::vector<SourceRange> unresolved;
  std::vector<std::pair<int, const ir::Alloc*>> allocations;

 protected:
  ExprPtr mutate_node(const ir::TupleExpr& node, const ExprPtr& self) override {
    // Any list holding a shape is one (a pass that rebuilt it keeps it so); the map only
    // tells where each `*` was.
    const bool holds_shape =
        std::any_of(node.elements.begin(), node.elements.end(),
                    [](const ExprPtr& element) { return element->type.kind == TypeKind::kShape; });
    if (node.type.kind != TypeKind::kShape || !holds_shape) return Mutator::mutate_node(node, self);
    auto it = deferred_.find(&node);
    std::vector<ExprPtr> sizes;
    size_t splat = 0;
    for (const ExprPtr& element : node.elements) {
      if (element->type.kind != TypeKind::kShape) {
        sizes.push_back(element);
        continue;
      }
      const SourceRange where = it == deferred_.end() || it->second.empty()
                                    ? element->range
                                    : it->second[std::min(splat++, it->second.size() - 1)];
      std::optional<std::vector<ExprPtr>> resolved = shape_sizes(kernel_, element);
      if (!resolved) {
        // A host view's sizes (`out.view(*x.size(), n)`) stay a list that unpacks the shape
        // when JAX traces the module: the view's rank is a trace-time one, like x's.
        if (!host_view_) unresolved.push_back(where);
        return self;
      }
      sizes.insert(sizes.end(), resolved->begin(), resolved->end());
    }
    const int rank = static_cast<int>(sizes.size());
    return ir::TupleExpr::make(std::move(sizes), Type::shape(rank), node.range);
  }

  ExprPtr mutate_node(const ir::Call& node, const ExprPtr& self) override {
    const bool outer = host_view_;
    host_view_ = node.op == Intrinsic::kReshape && node.type.kind == TypeKind::kTensor;
    ExprPtr result = Mutator::mutate_node(node, self);
    host_view_ = outer;
    return result;
  }

  ir::StmtPtr mutate_node(const ir::Alloc& node, const ir::StmtPtr& self) override {
    ir::StmtPtr result = Mutator::mutate_node(node, self);
    if (result != self) allocations.emplace_back(node.target, result->as<ir::Alloc>());
    return result;
  }

 private:
  const ir::Kernel& kernel_;
  const std::map<const ir::Expr*, std::vector<SourceRange>>& deferred_;
  bool host_view_ = false;  // mutating the arguments of a host view (a reshape of a tensor)
};

}  // namespace

void KernelLowering::resolve_shape_splats() {
  if (deferred_splats_.empty()) return;
  SplatResolver resolver(kernel_, deferred_splats_);
  ir::Block body = resolver.mutate(kernel_.body);
  for (const SourceRange& where : resolver.unresolved) {
    diags_.error(DiagnosticKind::kUnsupported, where,
                 "unpacking a shape whose rank the kernel never fixes (`*x.shape[1:]` of a "
                 "tensor `x` not indexed with all its dimensions) is not supported yet; index "
                 "`x` in the kernel or name its sizes (`_, n = x.size()`)");
    failed_ = true;
  }
  if (failed_) return;
  kernel_.body = std::move(body);
  try {
    // The allocated tensors' ranks: learned from the shape, or checked against it.
    for (const auto& [target, alloc] : resolver.allocations) {
      refine_rank(target, alloc->shape->type.rank, alloc->shape->range);
    }
  } catch (const LoweringAbort&) {
    failed_ = true;  // refine_rank reported the mismatch
  }
}

}  // namespace helionc::frontend
