// Inner loops: a `for` over `hl.tile(...)` inside device code runs sequentially within one
// kernel invocation. Names bound before the loop and rebound in its body are carried from one
// iteration to the next (ir::TileLoop::Carry); everything else the body binds dies with it.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"
#include "frontend/type_rules.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::Binding;
using ir::Type;
using ir::TypeKind;

namespace {

// The identifiers a block assigns to, in nested blocks too (`acc = ...`, `acc += ...`,
// `m_i, l_i = ...`), in source order and once each.
void collect_assigned_names(const SyntaxNode& node, std::vector<std::string>& names) {
  const std::string_view type = node.type();
  if (type == "lambda" || type == "function_definition") return;
  if (type == "assignment" || type == "augmented_assignment") {
    const SyntaxNode target = node.child_by_field("left");
    std::vector<SyntaxNode> targets;
    if (target.type() == "identifier") {
      targets.push_back(target);
    } else if (target.type() == "pattern_list" || target.type() == "tuple_pattern") {
      targets = target.named_children();
    }
    for (const SyntaxNode& name : targets) {
      if (name.type() != "identifier") continue;
      std::string text(name.text());
      if (std::find(names.begin(), names.end(), text) == names.end()) names.push_back(text);
    }
  }
  for (const SyntaxNode& child : node.named_children()) collect_assigned_names(child, names);
}

}  // namespace

KernelLowering::RangeBounds KernelLowering::lower_range_bounds(
    const SyntaxNode& call, std::string_view shown,
    const std::function<void(const SyntaxNode& arg, const ir::ExprPtr& bound)>& check) {
  const CallArgs args = split_args(call);
  check_arity(args, shown, 1, 3, {});
  std::vector<ir::ExprPtr> bounds;
  for (const SyntaxNode& arg : args.positional) {
    bounds.push_back(lower_expr(arg));
    check(arg, bounds.back());
  }
  const bool has_begin = bounds.size() > 1;
  return {has_begin ? bounds[0] : ir::IntImm::make(0, call.range()),
          has_begin ? bounds[1] : bounds[0],
          bounds.size() > 2 ? bounds[2] : ir::IntImm::make(1, call.range())};
}

void KernelLowering::lower_static_range(const SyntaxNode& node, ir::Block& out,
                                        std::string_view shown) {
  const SyntaxNode call = node.child_by_field("right");
  const SyntaxNode target = node.child_by_field("left");
  if (!in_device()) {
    unsupported(node.range(), shown == "range"
                                  ? "a `range` loop in host code (loop inside `hl.tile`)"
                                  : "`hl.static_range` outside device code (use `range` on the "
                                    "host)");
  }
  if (node.child_by_field("alternative")) unsupported(node.range(), "`for ... else`");
  if (target.type() != "identifier") unsupported(target.range(), "this loop target");
  // Bounds run on the host while JAX traces: ints known there. (Helion's `range` in device
  // code is `hl.grid`; with bounds known at trace time, unrolling it runs the same iterations
  // in the same order and keeps `i` a Python int for static indexing, as `hl.static_range`.)
  auto [begin, end, step] =
      lower_range_bounds(call, shown, [&](const SyntaxNode& arg, const ir::ExprPtr& bound) {
        if (bound->type.kind != TypeKind::kInt || ir::reads_kernel_values(kernel_, bound)) {
          fail(DiagnosticKind::kTypeMismatch, arg.range(),
               fmt::format("`{}` in device code takes ints known before the kernel runs (sizes, "
                           "constants); a bound read from a tensor needs `hl.tile(begin, end)`",
                           shown));
        }
      });

  const size_t first_binding = kernel_.bindings.size();
  const int var = bind(std::string(target.text()), Type::scalar(TypeKind::kInt),
                       Binding::Origin::kDevice, target.range());
  trace_time_values_.insert(var);  // a Python int while JAX traces (the loop is unrolled)
  std::vector<ir::TileLoop::Carry> carried;
  ir::Block body = lower_loop_body(node, first_binding, &carried);
  out.push_back(ir::StaticLoop::make(var, std::move(begin), std::move(end), std::move(step),
                                     std::move(body), std::move(carried), node.range()));
}

void KernelLowering::lower_unrolled_for(const SyntaxNode& node, ir::Block& out) {
  // `for i in [1, 2, 3]`, `for t in (a, b, c)`, `for m in ms` (`ms` bound to such a list or a
  // comprehension): Python runs the body once per element, so the body is lowered once per
  // element with the target bound to it (unrolled here rather than while JAX traces: the
  // elements may be tiles or device values of different types). The elements are evaluated
  // first, as Python evaluates the iterable before the loop.
  const SyntaxNode iterable = node.child_by_field("right");
  const SyntaxNode target = node.child_by_field("left");
  if (node.child_by_field("alternative")) unsupported(node.range(), "`for ... else`");
  if (target.type() != "identifier" && target.type() != "pattern_list" &&
      target.type() != "tuple_pattern" && target.type() != "list_pattern") {
    unsupported(target.range(), "this loop target");
  }
  const std::vector<ir::ExprPtr> elements = iterable_elements(iterable, "a `for` loop");
  const bool failed_before = failed_;
  for (const ir::ExprPtr& element : elements) {
    // A whole tensor (`for w in (a, b)`) is not a device value: the target names the same
    // array, as the element's own name does.
    const auto* tensor = element->as<ir::VarRef>();
    if (tensor && target.type() == "identifier" &&
        binding(tensor->binding).type.kind == TypeKind::kTensor) {
      scope_[std::string(target.text())] = tensor->binding;
    } else {
      bind_targets(target, element, element->range, out);
    }
    for (const SyntaxNode& stmt : node.child_by_field("body").named_children()) {
      try {
        lower_statement(stmt, out);
      } catch (const LoweringAbort&) {
        poison_targets(stmt);
      }
    }
    // One report per broken statement, not one per element.
    if (failed_ && !failed_before) return;
  }
}

ir::Block KernelLowering::lower_loop_body(const SyntaxNode& loop, size_t first_binding,
                                          std::vector<ir::TileLoop::Carry>* carried) {
  const SyntaxNode body_node = loop.child_by_field("body");
  if (carried) *carried = open_carries(body_node, loop.range());
  ++device_depth_;
  ir::Block body = lower_block(body_node);
  --device_depth_;
  const size_t end_of_body = kernel_.bindings.size();
  if (carried) close_carries(*carried, loop.range());
  // The loop's own bindings die with it; a later use is an error that points at its end.
  // (Carried values live on as the loop's results, bound after `end_of_body`.)
  const SourceRange end_of_loop = file_.range(loop.end_byte(), loop.end_byte());
  for (size_t id = first_binding; id < end_of_body; ++id) {
    closed_[static_cast<int>(id)] = end_of_loop;
  }
  return body;
}

std::string KernelLowering::describe(const ir::Type& type) const {
  if (type.kind != TypeKind::kTileTensor || type.variadic) {
    return fmt::format("`{}`", ir::type_to_string(type));
  }
  return fmt::format("{} {}", dims_to_string(kernel_, type.dims),
                     type.dtype ? ir::dtype_name(*type.dtype) : "(dtype known at trace time)");
}

std::vector<ir::TileLoop::Carry> KernelLowering::open_carries(const SyntaxNode& body,
                                                              SourceRange loop_range) {
  std::vector<std::string> assigned;
  collect_assigned_names(body, assigned);
  std::vector<ir::TileLoop::Carry> carries;
  for (const std::string& name : assigned) {
    auto it = scope_.find(name);
    if (it == scope_.end()) continue;
    const int init = it->second;
    const Binding before = binding(init);  // a copy: bind() below grows kernel_.bindings
    // Only values of the device code are carried; a loop-local rebinding of a host value or a
    // tile would shadow it, which the body's own checks report.
    if (before.origin != Binding::Origin::kDevice || closed_.count(init) || poisoned_.count(init)) {
      continue;
    }
    if (one_branch_.count(init)) {
      // Bound on one branch of a static `if`, with no value on the other to carry.
      fail(DiagnosticKind::kUnsupported, loop_range,
           fmt::format("`{}` is carried around this loop but is defined on only one branch of an "
                       "`if` before it, and is not a tile value of known dtype (which would be "
                       "zeros on the other branch); this is not supported yet",
                       name));
    }
    ir::TileLoop::Carry carry;
    carry.init = init;
    carry.phi = bind(name, before.type, Binding::Origin::kDevice, loop_range);
    inherit_guard(carry.phi, {init});
    carries.push_back(carry);
  }
  return carries;
}

bool KernelLowering::carried_axes_agree(const std::string& name, const std::vector<ir::Dim>& start,
                                        const std::vector<ir::Dim>& end, SourceRange range) {
  if (start.size() != end.size()) return false;
  // Helion specializes shapes, so two axes whose lengths are equal when the kernel is called
  // make one shape: `state = initial[r, 0, :, :]` carried and rebound to `x_block[t, :, :]`, or
  // `acc = hl.zeros([tile, 1])` accumulating a product with `x[tile_k, :]` of a [k, 1] `x`.
  // Each such pair is checked while JAX traces; other differences are errors.
  std::vector<std::pair<ir::Dim, ir::Dim>> checks;
  for (size_t i = 0; i < start.size(); ++i) {
    const ir::Dim& a = start[i];
    const ir::Dim& b = end[i];
    if (a == b || dims_agree({a}, {b})) continue;
    const bool a_full = a.kind == ir::Dim::Kind::kFull;
    const bool b_full = b.kind == ir::Dim::Kind::kFull;
    if (a_full && b_full) {
      checks.emplace_back(a, b);
    } else if ((a_full && b.kind == ir::Dim::Kind::kUnit) ||
               (b_full && a.kind == ir::Dim::Kind::kUnit)) {
      checks.emplace_back(a_full ? a : b, ir::Dim::unit());
    } else {
      return false;
    }
  }
  unify_dims(start, end, range);  // the literal sizes' checks
  const std::string why = fmt::format(
      "the kernel carries `{}` around a loop whose body gives it the other axis "
      "(Helion specializes shapes)",
      name);
  for (const auto& [full, other] : checks) {
    if (other.kind == ir::Dim::Kind::kUnit) {
      require_size(SizeAgreement{ir::Dim::literal(1), full}, range);
    } else {
      require_equal_axes(full, other, why, range);
    }
  }
  return true;
}

void KernelLowering::close_carries(std::vector<ir::TileLoop::Carry>& carries,
                                   SourceRange loop_range) {
  for (ir::TileLoop::Carry& carry : carries) {
    // Copies: bind() below appends to kernel_.bindings, which would free references into it.
    const std::string name = binding(carry.init).name;
    carry.next = scope_.at(name);
    const Type start = binding(carry.init).type;
    const Type& end = binding(carry.next).type;  // not used after bind()
    const bool poisoned = poisoned_.count(carry.next) > 0;
    if (!poisoned && !closed_.count(carry.next)) {
      // Closed: the name was rebound only inside a nested loop, which reported it.
      // A literal size may come back as the tensor axis it met, a whole axis as another
      // tensor's whole axis, a 1 as a whole axis (checked at trace time: carried_axes_agree).
      const bool same_shape =
          start.kind == end.kind && start.variadic == end.variadic &&
          carried_axes_agree(name, start.dims, end.dims, binding(carry.next).range);
      const bool same_dtype = !start.dtype || !end.dtype || *start.dtype == *end.dtype;
      if (!same_shape || !same_dtype) {
        diags_
            .error(DiagnosticKind::kTypeMismatch, binding(carry.next).range,
                   fmt::format("`{}` is carried around the loop but changes from {} to {} in its "
                               "body; keep its shape and dtype (e.g. with `.to()`)",
                               name, describe(start), describe(end)))
            .note(binding(carry.init).range, "its value before the loop is bound here");
        failed_ = true;
      }
    }
    carry.result = bind(name, start, Binding::Origin::kDevice, loop_range);
    inherit_guard(carry.result, {carry.init, carry.next});
    if (poisoned) poisoned_[carry.result] = "";
  }
}

}  // namespace helionc::frontend
