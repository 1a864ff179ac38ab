// Statement handlers: assignments, stores, return, assert, and the rejections of Python
// statements outside the subset (each with the reason and, where there is one, the fix).
#include <fmt/format.h>

#include "frontend/assert_message.h"
#include "frontend/function_table.h"
#include "frontend/kernel_lowering.h"
#include "ir/visitor.h"

namespace helionc::frontend {

using ir::Binding;
using ir::Type;
using ir::TypeKind;

ir::Block KernelLowering::lower_block(const SyntaxNode& block) {
  ir::Block out;
  for (const SyntaxNode& stmt : block.named_children()) {
    try {
      lower_statement(stmt, out);
    } catch (const LoweringAbort&) {
      // Reported already; go on so that every broken statement is reported once.
      poison_targets(stmt);
    }
  }
  return out;
}

void KernelLowering::lower_statement(const SyntaxNode& stmt, ir::Block& out) {
  const std::string_view type = stmt.type();
  if (type == "expression_statement") {
    const auto children = stmt.named_children();
    const SyntaxNode& inner = children.front();
    if (inner.type() == "assignment") return lower_assignment(inner, out);
    if (inner.type() == "augmented_assignment") return lower_augmented_assignment(inner, out);
    if (inner.type() == "string") return;  // a docstring or a comment-like string
    if (inner.type() == "call" &&
        imports_.qualified_name(inner.child_by_field("function")) == "helion.language.store") {
      if (!in_device()) unsupported(inner.range(), "`hl.store` in host code");
      return lower_hl_store(split_args(inner), out);
    }
    if (is_atomic_call(inner)) {
      lower_atomic(inner, /*value_used=*/false, out);
      return;
    }
    if (inner.type() == "call" && is_builtin(inner.child_by_field("function"), "print")) {
      return lower_print(inner, out);
    }
    if (inner.type() == "call" &&
        imports_.qualified_name(inner.child_by_field("function")) == "helion.language.specialize") {
      // `hl.specialize(x.size(1))` alone: Helion compiles the size in. The module is traced
      // with every size static already, so only the argument is checked.
      lower_expr(inner);
      return;
    }
    if (inner.type() == "call") {
      lower_expr(inner);  // reports unknown functions precisely
      fail(DiagnosticKind::kUnusedValue, inner.range(),
           "the result of this call is discarded; helionc compiles only calls whose value is "
           "used");
    }
    fail(DiagnosticKind::kUnusedValue, stmt.range(), "this expression has no effect");
  }
  if (type == "pass_statement") return;
  if (type == "return_statement") return lower_return(stmt, out);
  if (type == "assert_statement") return lower_assert(stmt, out);
  if (type == "for_statement") return lower_for(stmt, out);
  if (type == "if_statement") return lower_if(stmt, out);
  if (type == "while_statement") {
    fail(DiagnosticKind::kUnsupported, stmt.range(),
         in_device() ? "`while` loops are not supported in device code; use `for ... in "
                       "hl.tile(...)`"
                     : "`while` loops are not supported in a kernel");
  }
  if (type == "function_definition" || type == "decorated_definition" ||
      type == "class_definition") {
    unsupported(stmt.range(), "a nested definition inside a kernel");
  }
  if (type == "import_statement" || type == "import_from_statement") {
    unsupported(stmt.range(), "an import inside a kernel");
  }
  unsupported(stmt.range(), fmt::format("the `{}` statement",
                                        std::string(type.substr(0, type.rfind("_statement")))));
}

void KernelLowering::lower_assignment(const SyntaxNode& node, ir::Block& out) {
  const SyntaxNode target = node.child_by_field("left");
  const SyntaxNode value = node.child_by_field("right");
  // `scale: float = 0.5`: Python does not evaluate a local's annotation, so neither do we.
  if (node.child_by_field("type") && target.type() != "identifier") {
    unsupported(node.range(), "an annotated assignment to anything but a name");
  }
  if (!value) unsupported(node.range(), "a declaration without a value");
  if (value.type() == "assignment") unsupported(node.range(), "a chained assignment");
  if (target.type() == "subscript") {
    if (!in_device()) return lower_host_store(target, lower_expr(value), node.range(), out);
    ir::ExprPtr stored =
        is_atomic_call(value) ? lower_atomic(value, /*value_used=*/true, out) : lower_expr(value);
    return lower_store(target, std::move(stored), node.range(), out);
  }
  if (lower_pack_assignment(target, value, out)) return;
  if (lower_dict_assignment(target, value)) return;
  if (!in_device() && target.type() == "identifier" && is_allocation_call(value)) {
    return lower_allocation(target, value, out);
  }
  if (!in_device() && target.type() == "identifier" && value.type() == "call" &&
      value.child_by_field("function").type() == "attribute" &&
      is_allocation_call(value.child_by_field("function").child_by_field("object"))) {
    // `out = torch.empty(...).view(-1)` (Helion's jagged examples flatten their output so):
    // `out = torch.empty(...)`, then `out = out.view(-1)`.
    const SyntaxNode allocation = value.child_by_field("function").child_by_field("object");
    lower_allocation(target, allocation, out);
    chained_allocation_ = {allocation.range(), scope_.find(target.text())->second};
    ir::ExprPtr chained = lower_expr(value);
    chained_allocation_.reset();
    return bind_targets(target, chained, node.range(), out);
  }
  if (!in_device() && lower_allocation_pairs(target, value, out)) return;
  if (is_atomic_call(value)) {
    return bind_targets(target, lower_atomic(value, /*value_used=*/true, out), node.range(), out);
  }
  if (value.type() == "call" && target.type() == "identifier" &&
      imports_.qualified_name(value.child_by_field("function")) ==
          "helion.language.register_block_size") {
    return lower_register_block_size(target, value, out);
  }
  bind_targets(target, lower_expr(value), node.range(), out);
}

void KernelLowering::bind_targets(const SyntaxNode& target, const ir::ExprPtr& value,
                                  SourceRange range, ir::Block& out) {
  const Binding::Origin origin = in_device() ? Binding::Origin::kDevice : Binding::Origin::kHost;
  if (target.type() == "identifier") {
    if (value->type.kind == TypeKind::kNone) {
      unsupported(range, "binding `None` to a name");
    }
    const int id = bind(std::string(target.text()), value->type, origin, target.range());
    out.push_back(ir::Let::make(id, value, range));
    note_known_sequence(id, value);  // `for x in name` unrolls over its elements
    // `y = x`: one array under two names; a store through `y` updates the caller's `x`.
    if (const auto* alias = value->as<ir::VarRef>()) {
      note_same_array(alias->binding, id);
      if (value->type.kind == TypeKind::kTensor) {
        shared_arrays_.emplace(alias->binding, id);
        shared_arrays_.emplace(id, alias->binding);
      }
    }
    // `head_dim = hl.specialize(q.size(-1))`: a shape entry `head_dim` is q's whole last axis.
    if (origin == Binding::Origin::kHost && value->type.kind == TypeKind::kInt) {
      host_sizes_[id] = value;
    }
    if (origin == Binding::Origin::kHost) note_item_binding(id, value);
    if (origin == Binding::Origin::kDevice && value->type.is_scalar() && !is_device_value(value)) {
      trace_time_values_.insert(id);  // `scale = 0.5` in device code is still a Python float
    }
    if (origin == Binding::Origin::kDevice &&
        (value->type.kind == TypeKind::kInt || value->as<ir::TileAttr>())) {
      device_ints_[id] = value;  // `live = outer.end - outer.begin`, `rows = local.index`
    }
    if (const auto* call = value->as<ir::Call>();
        call && !in_device() &&
        (call->op == ir::Intrinsic::kReshape || call->op == ir::Intrinsic::kPermute ||
         call->op == ir::Intrinsic::kSwapAxes || call->op == ir::Intrinsic::kUnsqueeze ||
         call->op == ir::Intrinsic::kSqueeze)) {
      if (const auto* base = call->args[0]->as<ir::VarRef>()) views_[id] = {base->binding, value};
    }
    if (const auto* call = value->as<ir::Call>(); call && call->op == ir::Intrinsic::kHostIndex) {
      host_indexed_[id] = call->args[0];
    }
    return;
  }
  if (target.type() != "pattern_list" && target.type() != "tuple_pattern" &&
      target.type() != "list_pattern") {
    unsupported(target.range(), "this assignment target");
  }
  const auto names = target.named_children();
  for (const SyntaxNode& name : names) {
    if (name.type() == "list_splat_pattern") {
      unsupported(name.range(), fmt::format("a starred target (`{}`)", name.text()));
    }
  }
  const Type& type = value->type;
  if (const auto* elements = value->as<ir::TupleExpr>();
      elements && type.kind == TypeKind::kTuple && elements->elements.size() == names.size() &&
      !reads_any_name(elements->elements, names)) {
    // `a, b = x, y`: each name takes its element. The module names values by their source
    // names, so `a, b = b, a` (elements reading the names bound) stays one tuple assignment.
    for (size_t i = 0; i < names.size(); ++i) {
      bind_targets(names[i], elements->elements[i], range, out);
    }
    return;
  }
  if (type.kind != TypeKind::kShape && type.kind != TypeKind::kTuple) {
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("cannot unpack a value of type `{}`", ir::type_to_string(type)));
  }
  if (type.rank < 0 && type.kind == TypeKind::kShape) {
    // `m, n = x.size()` is how most kernels state a tensor's rank.
    // So does `s0, s1 = x.stride()`.
    const auto* shape_of = value->as<ir::Call>();
    const bool per_axis = shape_of && (shape_of->op == ir::Intrinsic::kShapeOf ||
                                       shape_of->op == ir::Intrinsic::kStride);
    const auto* tensor = per_axis ? shape_of->args[0]->as<ir::VarRef>() : nullptr;
    if (tensor) {
      refine_rank(tensor->binding, static_cast<int>(names.size()), range);
      std::vector<ir::ExprPtr> args = shape_of->args;
      args[0] = ref(tensor->binding, shape_of->args[0]->range);
      const ir::ExprPtr refined = ir::Call::make(
          shape_of->op, std::move(args), Type::shape(static_cast<int>(names.size())), value->range);
      return bind_targets(target, refined, range, out);
    }
  }
  if (type.rank < 0) {
    fail(DiagnosticKind::kRankMismatch, range,
         "cannot unpack a shape whose rank is only known at trace time");
  }
  if (static_cast<int>(names.size()) != type.rank) {
    fail(DiagnosticKind::kRankMismatch, target.range(),
         fmt::format("cannot unpack {} value{} into {} name{}", type.rank,
                     type.rank == 1 ? "" : "s", names.size(), names.size() == 1 ? "" : "s"));
  }
  std::vector<int> ids;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].type() != "identifier") unsupported(names[i].range(), "a nested unpacking target");
    const Type element =
        type.kind == TypeKind::kShape ? Type::scalar(TypeKind::kInt) : type.elements[i];
    ids.push_back(bind(std::string(names[i].text()), element, origin, names[i].range()));
    const auto* shape_of = value->as<ir::Call>();
    if (origin == Binding::Origin::kHost && shape_of && shape_of->op == ir::Intrinsic::kShapeOf) {
      // `m, n = x.size()`: a shape entry `n` is x's whole axis 1.
      host_sizes_[ids.back()] = ir::Call::make(
          ir::Intrinsic::kSize,
          {shape_of->args[0], ir::IntImm::make(static_cast<int64_t>(i), names[i].range())},
          Type::scalar(TypeKind::kInt), names[i].range());
    }
    const auto* sizes = value->as<ir::TupleExpr>();
    if (origin == Binding::Origin::kDevice && sizes && type.kind == TypeKind::kShape) {
      // `block_t, block_n = acc.size()`: each name stands for the tile's block size it holds.
      device_ints_[ids.back()] = sizes->elements[i];
    }
  }
  out.push_back(ir::Let::make_unpack(std::move(ids), value, range));
}

namespace {

// Whether `node` mentions an identifier spelled like one of `names`.
bool mentions_name(const SyntaxNode& node, const std::vector<SyntaxNode>& names) {
  if (node.type() == "identifier") {
    for (const SyntaxNode& name : names) {
      if (name.text() == node.text()) return true;
    }
  }
  for (const SyntaxNode& child : node.named_children()) {
    if (mentions_name(child, names)) return true;
  }
  return false;
}

}  // namespace

bool KernelLowering::lower_allocation_pairs(const SyntaxNode& target, const SyntaxNode& value,
                                            ir::Block& out) {
  // `lo, hi = torch.empty_like(x), torch.empty_like(x)`: one allocation per name, as long as
  // no element reads a name the statement binds (Python evaluates the whole right side first).
  if (target.type() != "pattern_list" && target.type() != "tuple_pattern") return false;
  if (value.type() != "expression_list" && value.type() != "tuple") return false;
  const auto names = target.named_children();
  const auto elements = value.named_children();
  if (names.size() != elements.size() || mentions_name(value, names)) return false;
  bool any = false;
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].type() != "identifier") return false;
    any |= is_allocation_call(elements[i]);
  }
  if (!any) return false;
  for (size_t i = 0; i < names.size(); ++i) {
    if (is_allocation_call(elements[i])) {
      lower_allocation(names[i], elements[i], out);
    } else {
      bind_targets(names[i], lower_expr(elements[i]), elements[i].range(), out);
    }
  }
  return true;
}

bool KernelLowering::reads_any_name(const std::vector<ir::ExprPtr>& values,
                                    const std::vector<SyntaxNode>& names) const {
  std::set<std::string, std::less<>> bound;
  for (const SyntaxNode& name : names) bound.insert(std::string(name.text()));
  bool found = false;
  for (const ir::ExprPtr& value : values) {
    ir::for_each_expr(ir::Block{ir::Return::make({value}, value->range)}, [&](const ir::Expr& e) {
      if (const auto* ref = e.as<ir::VarRef>()) found |= bound.count(binding(ref->binding).name);
    });
  }
  return found;
}

void KernelLowering::lower_augmented_assignment(const SyntaxNode& node, ir::Block& out) {
  const SyntaxNode target = node.child_by_field("left");
  const SyntaxNode op_node = node.child_by_field("operator");
  const std::string_view spelling = op_node.text();  // "+=": the operator and its `=`
  const auto op = binary_operator(spelling.substr(0, spelling.size() - 1));
  if (!op) unsupported(op_node.range(), fmt::format("`{}`", op_node.text()));
  if (target.type() != "identifier" && target.type() != "subscript") {
    unsupported(target.range(), "this augmented-assignment target");
  }
  // `a op= b` means `a = a op b` for every target we accept (tile tensors are values).
  ir::ExprPtr current = lower_expr(target);
  ir::ExprPtr rhs = lower_expr(node.child_by_field("right"));
  ir::ExprPtr combined = make_binary(*op, current, rhs, node.range());
  if (target.type() == "subscript" && !in_device()) {
    return lower_host_store(target, combined, node.range(), out);
  }
  if (target.type() == "subscript") return lower_store(target, combined, node.range(), out);
  bind_targets(target, combined, node.range(), out);
}

void KernelLowering::lower_store(const SyntaxNode& target, ir::ExprPtr value, SourceRange range,
                                 ir::Block& out) {
  const SyntaxNode base = target.child_by_field("value");
  // `out[0][tile] = ...` stores into an element of a pack.
  ir::ExprPtr tensor = base.type() == "subscript" ? lower_pack_subscript(base) : nullptr;
  if (!tensor) {
    if (base.type() != "identifier") unsupported(base.range(), "storing through this expression");
    tensor = lower_identifier(base);
  }
  const auto* var = tensor->as<ir::VarRef>();
  if (!var || binding(var->binding).type.kind != TypeKind::kTensor) {
    fail(DiagnosticKind::kTypeMismatch, base.range(),
         fmt::format("`{}` is not a tensor and cannot be stored to", base.text()));
  }
  if (binding(var->binding).origin == Binding::Origin::kDevice) {
    unsupported(base.range(), "storing into a tensor created in device code");
  }
  if (host_indexed_.count(var->binding)) {
    // PyTorch's `x[:2, :4]` is a view a store would write through; jnp's is a copy.
    unsupported(base.range(),
                fmt::format("storing into `{}`, a part of a tensor indexed in host code (store "
                            "into the tensor itself, offsetting the tile's indices)",
                            base.text()));
  }
  std::vector<ir::Dim> dims;
  ir::Index index = lower_index(var->binding, target, &dims);
  append_store(std::move(tensor), std::move(index), dims, std::move(value), range, base.text(),
               out);
}

void KernelLowering::append_store(ir::ExprPtr tensor, ir::Index index,
                                  const std::vector<ir::Dim>& dims, ir::ExprPtr value,
                                  SourceRange range, std::string_view shown, ir::Block& out,
                                  bool accumulate) {
  if (value->type.kind == TypeKind::kTileTensor) value = fit_to_tiles(value, dims, range);
  const Type& value_type = value->type;
  if (value_type.kind == TypeKind::kTileTensor) {
    const auto merged = unify_dims(dims, value_type.dims, range);
    if (!merged || !dims_agree(*merged, dims)) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("cannot store a value of shape {} into `{}` of shape {}",
                       dims_to_string(kernel_, value_type.dims), shown,
                       dims_to_string(kernel_, dims)));
    }
  } else if (!value_type.is_scalar()) {
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("cannot store a value of type `{}` into a tensor",
                     ir::type_to_string(value_type)));
  }
  note_param_write(tensor->as<ir::VarRef>()->binding);
  if (accumulate && !jagged_dims_of(dims).empty()) {
    // The masked-off elements would have to add zeros, not keep their old values.
    unsupported(range,
                "a scatter-add (`hl.atomic_add` through a tile of indices) into a "
                "jagged tile");
  }
  value = mask_jagged_store(tensor, index, dims, std::move(value), range);
  out.push_back(
      ir::Store::make(std::move(tensor), std::move(index), std::move(value), range, accumulate));
}

ir::ExprPtr KernelLowering::fit_to_tiles(ir::ExprPtr value, const std::vector<ir::Dim>& dims,
                                         SourceRange range) {
  // A literal size of the value stored into a tile's dimension of the target (right-aligned,
  // as the store broadcasts) is that tile's block: a `fit_block` per such axis, which checks the
  // block while the module traces and types the value with the tile there, so that the store,
  // the masks and the plans see one shape.
  if (value->type.tile_rank() < 0 || value->type.dims.size() > dims.size()) return value;
  const size_t offset = dims.size() - value->type.dims.size();
  for (size_t i = 0; i < value->type.dims.size(); ++i) {
    const ir::Dim size = value->type.dims[i];
    const ir::Dim& target = dims[offset + i];
    if (size.kind != ir::Dim::Kind::kLiteral || target.kind != ir::Dim::Kind::kTile) continue;
    ir::TileDim& tile = kernel_.tile_dims[static_cast<size_t>(target.tile_dim)];
    if (tile.variadic || tile.jagged || (tile.stored_block && tile.stored_block != size.extent)) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("cannot store a value of shape {} into a block of `{}`{}",
                       dims_to_string(kernel_, value->type.dims), tile.name,
                       tile.stored_block
                           ? fmt::format(", which another store fixes to {}", tile.stored_block)
                           : std::string(" of this kind")));
    }
    const auto* fixed = tile.block.kind == ir::BlockSource::Kind::kFixed
                            ? tile.block.size->as<ir::IntImm>()
                            : nullptr;
    if (fixed && fixed->value != size.extent) {
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("cannot store a value of shape {} into a block of `{}`, whose block size "
                       "is {}",
                       dims_to_string(kernel_, value->type.dims), tile.name, fixed->value));
    }
    tile.stored_block = size.extent;
    std::vector<ir::Dim> fitted = value->type.dims;
    fitted[i] = target;
    value = ir::Call::make(ir::Intrinsic::kFitBlock,
                           {value, ir::IntImm::make(static_cast<int64_t>(i), range),
                            ir::IntImm::make(size.extent, range)},
                           Type::tile_tensor(std::move(fitted), value->type.dtype), range);
  }
  return value;
}

void KernelLowering::lower_assert(const SyntaxNode& node, ir::Block& out) {
  if (in_device()) unsupported(node.range(), "`assert` in device code");
  const auto children = node.named_children();
  ir::ExprPtr condition = lower_expr(children.front());
  if (!condition->type.is_scalar()) {
    fail(DiagnosticKind::kTypeMismatch, condition->range,
         "an `assert` in a kernel must test static values (sizes, scalar arguments)");
  }
  ir::ExprPtr message;
  if (children.size() > 1) {
    SyntaxNode text = children[1];
    // `assert ok, ("message")`: the parentheses only wrap a long line.
    while (text.type() == "parenthesized_expression" && text.named_children().size() == 1) {
      text = text.named_children().front();
    }
    if (text.type() != "string") unsupported(children[1].range(), "a computed assert message");
    std::optional<AssertMessage> parsed = assert_message(text);
    if (!parsed) {
      unsupported(children[1].range(),
                  "an f-string assert message with a `{x=}` field, or a field inside a format "
                  "spec with a conversion or a spec of its own");
    }
    message = ir::StringImm::make(std::move(parsed->literal), children[1].range());
    if (!parsed->fields.empty()) {
      // Python formats the fields only when the assert fails; so does the module's check.
      std::vector<ir::ExprPtr> args = {std::move(message)};
      for (const SyntaxNode& field : parsed->fields) args.push_back(lower_expr(field));
      message = ir::Call::make(ir::Intrinsic::kFormat, std::move(args),
                               Type::scalar(TypeKind::kString), children[1].range());
    }
  }
  out.push_back(ir::Assert::make(std::move(condition), std::move(message), node.range()));
}

void KernelLowering::lower_if(const SyntaxNode& node, ir::Block& out) {
  if (lower_device_if(node, out)) return;
  out.push_back(lower_if_chain(node.child_by_field("condition"), node.child_by_field("consequence"),
                               node.children_by_field("alternative"), 0, node.range()));
}

bool KernelLowering::lower_device_if(const SyntaxNode& node, ir::Block& out) {
  // Only in device code, on a device scalar: a tile-valued condition is `torch.where`'s, and
  // the static `if` below handles the rest.
  if (!in_device()) return false;
  const SyntaxNode condition_node = node.child_by_field("condition");
  // Conditions of other forms are the static `if`'s to lower (and report).
  const std::string_view form = condition_node.type();
  if (form != "comparison_operator" && form != "identifier" && form != "boolean_operator" &&
      form != "not_operator" && form != "parenthesized_expression") {
    return false;
  }
  ir::ExprPtr condition = lower_expr(condition_node);
  if (!is_device_value(condition) || !is_scalar_condition(condition)) return false;
  const bool has_else =
      !node.children_by_field("alternative").empty() || node.child_by_field("alternative");
  if (has_else || !assigns_only(node.child_by_field("consequence"))) {
    out.push_back(lower_guarded_if(condition, node.child_by_field("consequence"),
                                   node.children_by_field("alternative"), node.range()));
    return true;
  }
  const auto before = scope_;
  // `if live >= 3:` bounds `live` in the body (windows `x_block[live - 3 : live]`).
  const auto* at_least = condition->as<ir::Compare>();
  const bool guard = at_least && at_least->op == ir::CompareOp::kGe &&
                     at_least->lhs->as<ir::VarRef>() && at_least->rhs->as<ir::IntImm>();
  if (guard) {
    device_guards_.emplace_back(at_least->lhs->as<ir::VarRef>()->binding,
                                at_least->rhs->as<ir::IntImm>()->value);
  }
  ir::Block then_body;
  try {
    then_body = lower_block(node.child_by_field("consequence"));
  } catch (...) {
    if (guard) device_guards_.pop_back();
    throw;
  }
  if (guard) device_guards_.pop_back();
  const auto then_scope = scope_;
  for (const ir::StmtPtr& stmt : then_body) {
    if (stmt->kind != ir::StmtKind::kLet) {
      scope_ = before;  // later statements see the names as they were before the `if`
      fail(DiagnosticKind::kDataDependentControl, condition_node.range(),
           "an `if` on values computed in device code may only assign names (no stores, loops "
           "or nested `if`s) in its body; use `torch.where(cond, a, b)`");
    }
  }
  auto merges = merge_branch_scopes(before, then_scope, before, node.range());
  // The module names values by their source names, so the branch's `acc = ...` would overwrite
  // the `acc` the select needs when the condition is false: that one is kept under a name of
  // its own first (out of scope: the kernel cannot name it).
  std::vector<int> kept;
  for (const ir::If::Merge& merge : merges) {
    const Binding& old = binding(merge.else_value);
    const std::string name = old.name;
    const Type type = old.type;
    const int id = bind(name + "_unless", type, Binding::Origin::kDevice, node.range());
    scope_.erase(name + "_unless");
    out.push_back(
        ir::Let::make(id, ir::VarRef::make(merge.else_value, type, node.range()), node.range()));
    kept.push_back(id);
  }
  for (ir::StmtPtr& stmt : then_body) out.push_back(std::move(stmt));
  for (size_t i = 0; i < merges.size(); ++i) {
    const ir::If::Merge& merge = merges[i];
    const Binding& then_value = binding(merge.then_value);
    if (then_value.type.kind != TypeKind::kTileTensor) {
      fail(DiagnosticKind::kDataDependentControl, then_value.range,
           fmt::format("`{}` is assigned under an `if` on values computed in device code; only "
                       "tile values can be selected there",
                       then_value.name));
    }
    const Binding& result = binding(merge.result);
    ir::ExprPtr picked = ir::Call::make(
        ir::Intrinsic::kWhere,
        {condition, ir::VarRef::make(merge.then_value, then_value.type, node.range()),
         ir::VarRef::make(kept[i], binding(kept[i]).type, node.range())},
        result.type, node.range());
    out.push_back(ir::Let::make(merge.result, std::move(picked), node.range()));
  }
  return true;
}

ir::StmtPtr KernelLowering::lower_if_chain(const SyntaxNode& condition_node, const SyntaxNode& body,
                                           const std::vector<SyntaxNode>& alternatives, size_t next,
                                           SourceRange range) {
  ir::ExprPtr condition = lower_expr(condition_node);
  if (condition->type.kind == TypeKind::kTileTensor || is_device_value(condition)) {
    fail(DiagnosticKind::kDataDependentControl, condition_node.range(),
         is_scalar_condition(condition)
             ? "an `if` on values computed in device code with an `elif` or `else` is not "
               "supported here; test it first in its own `if`"
             : "`if` on a tile of values is not supported (each element has its own answer); "
               "use `torch.where(cond, a, b)`, or reduce the tile first (`.any()`, `.all()`, "
               "`.sum()`)");
  }
  if (!condition->type.is_scalar() && condition->type.kind != TypeKind::kNone) {
    fail(DiagnosticKind::kTypeMismatch, condition_node.range(),
         fmt::format("an `if` in a kernel must test a static value, not `{}`",
                     ir::type_to_string(condition->type)));
  }
  const auto before = scope_;
  const auto contents_before = param_contents_;
  // Each branch is lowered knowing which way the condition went (lower_static_guards.cpp).
  struct Guarded {
    std::vector<StaticGuard>& guards;
    Guarded(std::vector<StaticGuard>& guards, StaticGuard guard) : guards(guards) {
      guards.push_back(std::move(guard));
    }
    ~Guarded() { guards.pop_back(); }
    Guarded(const Guarded&) = delete;
    Guarded& operator=(const Guarded&) = delete;
  };
  ir::Block then_body;
  {
    const Guarded guard(static_guards_, {condition, true});
    then_body = lower_block(body);
  }
  const auto then_scope = scope_;
  const auto then_contents = param_contents_;
  scope_ = before;
  param_contents_ = contents_before;
  ir::Block else_body;
  if (next < alternatives.size()) {
    const Guarded guard(static_guards_, {condition, false});
    const SyntaxNode& alternative = alternatives[next];
    if (alternative.type() == "elif_clause") {
      else_body.push_back(lower_if_chain(alternative.child_by_field("condition"),
                                         alternative.child_by_field("consequence"), alternatives,
                                         next + 1, alternative.range()));
    } else {
      else_body = lower_block(alternative.child_by_field("body"));
    }
  }
  const auto else_scope = scope_;
  const auto else_contents = param_contents_;
  const StaticBranches branches{condition, &then_body, &else_body};
  auto merges = merge_branch_scopes(before, then_scope, else_scope, range, &branches);
  merge_param_contents(then_contents, else_contents, merges);
  return ir::If::make(std::move(condition), std::move(then_body), std::move(else_body),
                      std::move(merges), range);
}

std::vector<ir::If::Merge> KernelLowering::merge_branch_scopes(
    const std::map<std::string, int, std::less<>>& before,
    const std::map<std::string, int, std::less<>>& then_scope,
    const std::map<std::string, int, std::less<>>& else_scope, SourceRange range,
    const StaticBranches* branches) {
  scope_ = before;
  std::vector<ir::If::Merge> merges;
  const auto lookup = [](const auto& scope, const std::string& name) {
    auto it = scope.find(name);
    return it == scope.end() ? -1 : it->second;
  };
  std::set<std::string> names;
  for (const auto& [name, id] : then_scope) names.insert(name);
  for (const auto& [name, id] : else_scope) names.insert(name);
  for (const std::string& name : names) {
    const int then_id = lookup(then_scope, name);
    const int else_id = lookup(else_scope, name);
    if (then_id == else_id) continue;
    // Loop variables and device values of a loop inside a branch died with their loop; keep
    // one of them in scope so a later use still reports "used outside the loop".
    if (closed_.count(then_id) || closed_.count(else_id)) {
      scope_[name] = closed_.count(then_id) ? then_id : else_id;
      continue;
    }
    if ((then_id < 0 || else_id < 0) && branches) {
      const bool in_then = then_id >= 0;
      if (auto merge =
              keep_one_branch_name(name, in_then ? then_id : else_id, in_then, *branches, range)) {
        merges.push_back(*merge);
      }
      continue;
    }
    if (then_id < 0 || else_id < 0) {
      const int id = bind(name, Type::none(), Binding::Origin::kHost, range);
      poisoned_[id] = fmt::format("`{}` is defined on only one branch of the `if` above", name);
      continue;
    }
    const Type& a = binding(then_id).type;
    const Type& b = binding(else_id).type;
    Type merged = a;
    const bool same_shape = a.kind == b.kind && a.rank == b.rank && a.dims == b.dims &&
                            a.tile_dims == b.tile_dims && a.variadic == b.variadic;
    if (!same_shape) {
      Diagnostic& error =
          diags_
              .error(DiagnosticKind::kTypeMismatch, binding(else_id).range,
                     fmt::format("`{}` is `{}` on one branch and `{}` on the other", name,
                                 ir::type_to_string(a), ir::type_to_string(b)))
              .note(binding(then_id).range, "the other definition is here");
      if (branches) {
        // `if reduction == "none":` (examples/kl_div.py): Helion specializes on such a value
        // and compiles only the branch taken; one module serves every value here.
        error.note(
            branches->condition->range,
            "the condition is static, but helionc compiles one module for all its values, so "
            "the name needs one shape on both branches (Helion compiles a version per "
            "value of a parameter it specializes on, such as a `str` or `hl.constexpr`)");
      }
      failed_ = true;
      const int id = bind(name, Type::none(), Binding::Origin::kHost, range);
      poisoned_[id] = "";
      continue;
    }
    if (a.dtype != b.dtype) merged.dtype = std::nullopt;  // known when JAX traces the branch
    const int result = bind(name, std::move(merged), binding(then_id).origin, range);
    inherit_guard(result, {then_id, else_id});
    merges.push_back({result, then_id, else_id});
  }
  return merges;
}

void KernelLowering::poison_targets(const SyntaxNode& stmt) {
  if (stmt.type() != "expression_statement") return;
  const SyntaxNode inner = stmt.named_children().front();
  if (inner.type() != "assignment" && inner.type() != "augmented_assignment") return;
  const SyntaxNode target = inner.child_by_field("left");
  std::vector<SyntaxNode> names;
  if (target.type() == "identifier") {
    names.push_back(target);
  } else if (target.type() == "pattern_list" || target.type() == "tuple_pattern") {
    names = target.named_children();
  }
  for (const SyntaxNode& name : names) {
    if (name.type() != "identifier") continue;
    poisoned_[bind(std::string(name.text()), Type::none(), Binding::Origin::kHost, name.range())] =
        "";
  }
}

}  // namespace helionc::frontend
