// `t.item()` in host code: one element of a tensor as a Python number.
//
// A name bound to it that only device code reads (`scale = s.item()` then `x[tile] * scale`, a
// loop bound `n = lengths[0].item()`) is read in the kernel, as device code reads `end[0]`: each
// device use becomes a load of that element (the array goes to SMEM whole when it is read only
// as scalars), and the host `let` is dropped, so the module still works under `jax.jit`. A name
// host code reads (`torch.zeros(n.item())`, `if count.item() == 0`) needs the concrete value
// before the launches: kItem, printed as `_item(...)`, which raises a precise error while
// `jax.jit` traces (templates/helper_item.py.tmpl).
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

ExprPtr KernelLowering::lower_item(const ExprPtr& receiver, const CallArgs& args) {
  const SourceRange range = args.call.range();
  check_arity(args, ".item()", 0, 0, {});
  // PyTorch's Python number for the dtype; an int when the dtype is known only while JAX
  // traces (`int()` of it still truncates: lower_static_builtin).
  TypeKind kind = TypeKind::kInt;
  if (const auto& dtype = receiver->type.dtype) {
    if (*dtype == ir::ScalarType::kBool) kind = TypeKind::kBool;
    if (ir::is_floating(*dtype)) kind = TypeKind::kFloat;
  }
  return ir::Call::make(Intrinsic::kItem, {receiver}, Type::scalar(kind), range);
}

ExprPtr KernelLowering::lower_device_item(const ExprPtr& receiver, const CallArgs& args) {
  const SourceRange range = args.call.range();
  check_arity(args, ".item()", 0, 0, {});
  if (const auto* tensor = receiver->as<ir::VarRef>();
      tensor && receiver->type.kind == TypeKind::kTensor) {
    // `s.item()` of a whole tensor: its only element, so `s` has no axes.
    refine_rank(tensor->binding, 0, receiver->range);
    return ir::Load::make(ref(tensor->binding, receiver->range), {},
                          Type::tile_tensor({}, binding(tensor->binding).type.dtype), range);
  }
  if (receiver->type.kind == TypeKind::kTileTensor && receiver->type.dims.empty()) {
    return receiver;  // `offsets[g].item()`: already one element, which device code computes
  }
  fail(DiagnosticKind::kTypeMismatch, range,
       "`.item()` takes a value of one element, and this one has axes (index it down to one "
       "element first)");
}

void KernelLowering::note_item_binding(int id, const ExprPtr& value) {
  const auto* call = value->as<ir::Call>();
  if (!call || call->op != Intrinsic::kItem) return;
  const ExprPtr& receiver = call->args[0];
  // `s.item()` of a 0-d tensor (or one whose rank the kernel does not say): its only element.
  if (receiver->as<ir::VarRef>()) {
    if (receiver->type.rank <= 0) item_reads_[id] = {receiver, {}, call->range};
    return;
  }
  // `end[0].item()`, `offsets[-1].item()`: one literal index per axis, so one element (a
  // negative one counts from the end, as the kernel's index cannot).
  const auto* index = receiver->as<ir::Call>();
  if (!index || index->op != Intrinsic::kHostIndex) return;
  const ExprPtr& tensor = index->args[0];
  if (!tensor->as<ir::VarRef>() ||
      (tensor->type.rank_known() &&
       static_cast<size_t>(tensor->type.rank) + 1 != index->args.size())) {
    return;
  }
  std::vector<ExprPtr> items;
  for (size_t axis = 0; axis + 1 < index->args.size(); ++axis) {
    const auto* imm = index->args[axis + 1]->as<ir::IntImm>();
    if (!imm) return;
    if (imm->value >= 0) {
      items.push_back(index->args[axis + 1]);
      continue;
    }
    const SourceRange at = imm->range;
    ExprPtr size =
        ir::Call::make(Intrinsic::kSize, {tensor, ir::IntImm::make(static_cast<int64_t>(axis), at)},
                       Type::scalar(TypeKind::kInt), at);
    items.push_back(make_binary(ir::BinaryOp::kAdd, std::move(size), index->args[axis + 1], at));
  }
  item_reads_[id] = {tensor, std::move(items), call->range};
}

ExprPtr KernelLowering::read_item_binding(int id, SourceRange range) {
  const auto found = item_reads_.find(id);
  if (found == item_reads_.end()) return nullptr;
  if (!in_device()) {
    host_read_items_.insert(id);
    return nullptr;
  }
  const ItemRead& read = found->second;
  const int tensor = read.tensor->as<ir::VarRef>()->binding;
  // The kernel reads one element with an index per axis, so the tensor has as many axes as the
  // index has entries (0 for `s.item()`; a later use with other axes is an error pointing here).
  refine_rank(tensor, static_cast<int>(read.index.size()), read.tensor->range);
  device_read_items_.emplace(tensor, std::make_pair(id, range));
  ir::Index index;
  for (const ExprPtr& value : read.index) {
    ir::IndexItem item;
    item.kind = ir::IndexItem::Kind::kScalar;
    item.scalar = value;
    item.range = range;
    index.push_back(std::move(item));
  }
  return ir::Load::make(ref(tensor, range), std::move(index),
                        Type::tile_tensor({}, binding(tensor).type.dtype), range);
}

void KernelLowering::finish_items() {
  if (item_reads_.empty()) return;
  std::set<int> written = ir::stored_tensors(kernel_.body);
  for (const auto& [view, base] : views_) {
    if (written.count(view)) written.insert(base.first);
  }
  for (const auto& [tensor, read] : device_read_items_) {
    const auto param = holds_param_.find(tensor);
    const bool updated = param != holds_param_.end() && updated_params_.count(param->second);
    if (!updated && !written.count(tensor)) continue;
    const auto& [item, range] = read;
    Diagnostic& diag = diags_.error(
        DiagnosticKind::kUnsupported, range,
        fmt::format("`{}` is read in device code, so the kernel reads its element of `{}` here, "
                    "but the kernel also writes `{}`: an element read in the kernel of a tensor "
                    "the kernel writes is not supported yet",
                    binding(item).name, binding(tensor).name, binding(tensor).name));
    diag.note(item_reads_.at(item).call, "the element is read with `.item()` here");
    failed_ = true;
  }
  // A value merged after a host `if` is read there.
  const auto note_merges = [&](const ir::Block& block, const auto& recurse) -> void {
    for (const ir::StmtPtr& stmt : block) {
      const auto* branch = stmt->as<ir::If>();
      if (!branch || branch->on_device) continue;
      for (const ir::If::Merge& merge : branch->merges) {
        host_read_items_.insert(merge.then_value);
        host_read_items_.insert(merge.else_value);
      }
      recurse(branch->then_body, recurse);
      recurse(branch->else_body, recurse);
    }
  };
  note_merges(kernel_.body, note_merges);
  kernel_.body = ir::without_host_lets(kernel_.body, [&](const ir::Let& let) {
    return let.targets.size() == 1 && item_reads_.count(let.targets[0]) &&
           !host_read_items_.count(let.targets[0]);  // read only in the kernel
  });
}

}  // namespace helionc::frontend
