// Expression handlers: names, literals, attributes, subscripts, operators, tuples.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>

#include "frontend/function_table.h"
#include "frontend/kernel_lowering.h"
#include "support/did_you_mean.h"

namespace helionc::frontend {

using ir::Binding;
using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

ExprPtr KernelLowering::lower_expr(const SyntaxNode& node) {
  const std::string_view type = node.type();
  if (type == "identifier") return lower_identifier(node);
  if (type == "list_splat") {
    // A call's argument whose callee does not unpack it (CallArgs::splat).
    unsupported(node.range(), "`*args` in a call");
  }
  if (type == "integer") return lower_integer(node);
  if (type == "float") return lower_float(node);
  if (type == "true" || type == "false") return ir::BoolImm::make(type == "true", node.range());
  if (type == "none") return ir::NoneImm::make(node.range());
  if (type == "string") return ir::StringImm::make(std::string(node.text()), node.range());
  if (type == "parenthesized_expression") return lower_expr(node.named_children().front());
  if (type == "attribute") return lower_attribute(node);
  if (type == "subscript") return lower_subscript(node);
  if (type == "call") return lower_call(node);
  if (type == "binary_operator") return lower_binary(node);
  if (type == "unary_operator" || type == "not_operator") return lower_unary(node);
  if (type == "comparison_operator") return lower_comparison(node);
  if (type == "boolean_operator") return lower_boolean(node);
  // `a, b` without parentheses is a tuple too (`x, y = y, x`).
  if (type == "tuple" || type == "list" || type == "expression_list") return lower_sequence(node);
  if (type == "list_comprehension") return lower_comprehension(node);
  if (type == "conditional_expression") return lower_conditional(node);
  if (type == "lambda") unsupported(node.range(), "a lambda here");
  unsupported(node.range(), fmt::format("this expression (`{}`)", type));
}

ExprPtr KernelLowering::lower_identifier(const SyntaxNode& node) {
  const std::string_view name = node.text();
  if (ExprPtr element = comprehension_name(name)) return element;  // `m` in `[m for m in xs]`
  if (ExprPtr argument = lambda_name(node)) return argument;       // inside an inlined lambda
  if (const int pack = pack_named(node); pack >= 0) {
    fail(DiagnosticKind::kUnsupported, node.range(),
         fmt::format("`{}` is a list, tuple or dict of tensors, which the module passes as "
                     "separate arrays: the kernel can index it with a constant (`{}[0]`), unpack "
                     "it, iterate over it in device code or take its `len`, but not use it as a "
                     "value",
                     name, name));
  }
  auto it = scope_.find(name);
  if (it == scope_.end()) {
    if (ExprPtr constant = lower_module_constant(node)) return constant;
    if (auto dtype = dtype_constant(node)) return ir::DtypeImm::make(*dtype, node.range());
    if (imports_.qualified_name(node)) {
      fail(DiagnosticKind::kTypeMismatch, node.range(),
           fmt::format("module `{}` is not a value", name));
    }
    if (known_dicts_.count(name)) {
      fail(DiagnosticKind::kUnsupported, node.range(),
           fmt::format("`{}` is a dict of constant keys, which helionc reads only by a constant "
                       "key (`{}[key]`), not as a value",
                       name, name));
    }
    std::vector<std::string_view> known;
    for (const auto& [local, binding] : scope_) known.push_back(local);
    fail(DiagnosticKind::kUndefinedName, node.range(),
         fmt::format("undefined name `{}`{}", name, did_you_mean(name, known)));
  }
  const int id = it->second;
  if (registered_block_sizes_.count(id)) read_block_values_.insert(id);
  if (auto poisoned = poisoned_.find(id); poisoned != poisoned_.end()) {
    if (!poisoned->second.empty()) {
      diags_.error(DiagnosticKind::kUndefinedName, node.range(), poisoned->second);
    }
    failed_ = true;
    throw LoweringAbort{};
  }
  check_static_guard(id, node.range());
  auto closed = closed_.find(id);
  if (closed != closed_.end()) {
    const bool tile = binding(id).origin == Binding::Origin::kLoopVar;
    Diagnostic& diag = diags_.error(DiagnosticKind::kTileOutsideLoop, node.range(),
                                    fmt::format("{} `{}` is used outside the loop that defines it",
                                                tile ? "tile" : "device value", name));
    diag.note(closed->second, "the loop ends here");
    failed_ = true;
    throw LoweringAbort{};
  }
  if (ExprPtr element = read_item_binding(id, node.range())) return element;  // in the kernel
  return ref(id, node.range());
}

ExprPtr KernelLowering::lower_integer(const SyntaxNode& node) {
  std::string digits(node.text());
  digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
  int base = 10;
  size_t skip = 0;
  if (digits.size() > 2 && digits[0] == '0' &&
      std::string_view("xXoObB").find(digits[1]) != std::string_view::npos) {
    base = (digits[1] == 'x' || digits[1] == 'X')   ? 16
           : (digits[1] == 'o' || digits[1] == 'O') ? 8
                                                    : 2;
    skip = 2;
  }
  int64_t value = 0;
  const char* begin = digits.data() + skip;
  const char* end = digits.data() + digits.size();
  const auto result = std::from_chars(begin, end, value, base);
  if (result.ec != std::errc() || result.ptr != end) {
    fail(DiagnosticKind::kBadArgument, node.range(),
         fmt::format("integer literal `{}` does not fit in 64 bits", node.text()));
  }
  return ir::IntImm::make(value, node.range());
}

ExprPtr KernelLowering::lower_float(const SyntaxNode& node) {
  std::string text(node.text());
  if (!text.empty() && (text.back() == 'j' || text.back() == 'J')) {
    unsupported(node.range(), "a complex literal");
  }
  std::string digits = text;
  digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
  // strtod reads as Python does: out of range is `inf` (1e400) or 0.0 (1e-400), subnormals are
  // kept, the nearest double otherwise. (std::stod throws on the first two.) helionc never calls
  // setlocale, so the decimal point is always `.`.
  return ir::FloatImm::make(std::strtod(digits.c_str(), nullptr), text, node.range());
}

std::optional<ir::ScalarType> KernelLowering::dtype_constant(const SyntaxNode& node) {
  const auto name = imports_.qualified_name(node);
  // Helion's test dtypes, as `helion._testing` sets them for the Pallas backend on a TPU
  // (Helion's own examples and tests write them in kernels).
  if (name == "helion._testing.HALF_DTYPE") return ir::ScalarType::kBFloat16;
  if (name == "helion._testing.LONG_INT_TYPE") return ir::ScalarType::kInt32;
  if (!name || name->rfind("torch.", 0) != 0) return std::nullopt;
  const std::string attr = name->substr(6);
  if (attr == "int64" || attr == "long") {
    // JAX without x64 (and so Pallas on TPU) makes int64 int32: helionc does the same, aloud.
    // Indices and counts fit; a value that needs 64 bits would wrap (-Werror=narrowed-dtype
    // refuses instead).
    narrowed_int64(node.range(), fmt::format("`{}`", node.text()));
    return ir::ScalarType::kInt32;
  }
  if (ir::is_64bit_torch_dtype(attr)) {
    fail(DiagnosticKind::kUnsupportedDtype, node.range(),
         fmt::format("`{}` is a 64-bit type and TPUs have none; use `torch.int32` or "
                     "`torch.float32`",
                     node.text()));
  }
  return ir::torch_dtype_from_attr(attr);
}

void KernelLowering::narrowed_int64(SourceRange range, const std::string& what) {
  diags_.warning(DiagnosticKind::kNarrowedDtype, range,
                 fmt::format("{} is taken as int32: TPUs have no 64-bit integers (JAX without "
                             "x64 does the same); values must fit in 32 bits",
                             what));
}

ExprPtr KernelLowering::lower_attribute(const SyntaxNode& node) {
  if (auto dtype = dtype_constant(node)) return ir::DtypeImm::make(*dtype, node.range());
  if (auto name = imports_.qualified_name(node)) {
    if (*name == "math.pi") return ir::FloatImm::make(3.141592653589793, "math.pi", node.range());
    if (*name == "math.e") return ir::FloatImm::make(2.718281828459045, "math.e", node.range());
    if (*name == "math.inf") return ir::FloatImm::make(HUGE_VAL, "math.inf", node.range());
    fail(DiagnosticKind::kUnknownFunction, node.range(),
         fmt::format("`{}` is not supported by helionc{}", node.text(),
                     did_you_mean_function(*name, node.text())));
  }
  const SyntaxNode object = node.child_by_field("object");
  const std::string_view attr = node.child_by_field("attribute").text();
  ExprPtr base = lower_expr(object);
  const Type& type = base->type;
  if (ExprPtr result = lower_tile_attribute(base, attr, node.range())) return result;
  if (type.kind == TypeKind::kTuple && type.rank == 2 && (attr == "values" || attr == "indices")) {
    // The (values, indices) pair of `x.max(dim)`.
    return ir::TupleGet::make(base, attr == "values" ? 0 : 1,
                              type.elements[attr == "values" ? 0 : 1], node.range());
  }
  if (type.is_array()) {
    if (attr == "dtype") {
      return ir::Call::make(ir::Intrinsic::kDtypeOf, {base}, Type::dtype_value(), node.range());
    }
    if (type.kind == TypeKind::kTensor && attr == "shape") {
      return ir::Call::make(ir::Intrinsic::kShapeOf, {base}, Type::shape(type.rank), node.range());
    }
    if (type.kind == TypeKind::kTensor && attr == "ndim") {
      return ir::Call::make(ir::Intrinsic::kNdim, {base}, Type::scalar(TypeKind::kInt),
                            node.range());
    }
    if (type.kind == TypeKind::kTensor && attr == "T") {
      // PyTorch's `.T` reverses the axes (a view): the permutation, written back on stores.
      if (!type.rank_known()) {
        unsupported(node.range(), "`.T` of a tensor whose rank is only known at trace time");
      }
      std::vector<ExprPtr> order;
      for (int axis = type.rank - 1; axis >= 0; --axis) {
        order.push_back(ir::IntImm::make(axis, node.range()));
      }
      return make_host_view(
          ir::Intrinsic::kPermute, base,
          ir::TupleExpr::make(std::move(order), Type::shape(type.rank), node.range()), type.rank,
          node.range());
    }
    if (type.kind == TypeKind::kTensor && attr == "device") {
      // JAX places arrays itself: a device is only passed along (`device = x.device`,
      // `.to(device)`, `device=` of an allocation), which changes nothing; the module writes
      // None, JAX's default placement.
      return std::make_shared<ir::NoneImm>(ir::ExprKind::kNoneImm, Type::scalar(TypeKind::kDevice),
                                           node.range());
    }
    unsupported(node.range(), fmt::format("the tensor attribute `.{}`", attr));
  }
  fail(DiagnosticKind::kTypeMismatch, node.range(),
       fmt::format("a value of type `{}` has no attribute `{}`", ir::type_to_string(type), attr));
}

ExprPtr KernelLowering::lower_subscript(const SyntaxNode& node) {
  if (ExprPtr element = lower_pack_subscript(node)) return element;
  if (ExprPtr element = lower_dict_subscript(node)) return element;
  const SyntaxNode base_node = node.child_by_field("value");
  // `x.shape[i]` is `x.size(i)`: keep the axis symbolic rather than a tuple access.
  ExprPtr base = lower_expr(base_node);
  const Type& type = base->type;
  const auto items = node.children_by_field("subscript");
  if (type.kind == TypeKind::kShape || type.kind == TypeKind::kTuple) {
    if (items.size() == 1 && items[0].type() == "slice") return slice_sequence(base, items[0]);
    if (items.size() != 1) unsupported(node.range(), "slicing a shape or tuple");
    ExprPtr index = lower_expr(items[0]);
    const auto* imm = index->as<ir::IntImm>();
    if (!imm) unsupported(items[0].range(), "indexing a shape or tuple with a computed index");
    const int64_t i = imm->value;
    if (type.rank >= 0 && (i >= type.rank || i < -type.rank)) {
      fail(DiagnosticKind::kRankMismatch, items[0].range(),
           fmt::format("index {} is out of range for a {} of {} element{}", i,
                       type.kind == TypeKind::kShape ? "shape" : "tuple", type.rank,
                       type.rank == 1 ? "" : "s"));
    }
    if (const auto* call = base->as<ir::Call>(); call && call->op == ir::Intrinsic::kShapeOf) {
      return ir::Call::make(ir::Intrinsic::kSize, {call->args[0], index},
                            Type::scalar(TypeKind::kInt), node.range());
    }
    if (const auto known = known_elements(base); known && type.rank > 0) {
      // An element of a tuple written out (a tile value's `.shape`, or a name bound to a list
      // of numbers): the element itself, so a size stays a size (`v.shape[1]` is `x.size(1)`)
      // and device code reads no host tuple; IR expressions have no side effects.
      return (*known)[static_cast<size_t>((i + type.rank) % type.rank)];
    }
    Type element = type.kind == TypeKind::kShape ? Type::scalar(TypeKind::kInt)
                                                 : type.elements[(i + type.rank) % type.rank];
    return ir::TupleGet::make(base, static_cast<int>(i), std::move(element), node.range());
  }
  if (type.kind == TypeKind::kTensor) {
    if (!in_device()) return lower_host_index(base, node);
    const auto* var = base->as<ir::VarRef>();
    if (!var) unsupported(base_node.range(), "indexing this expression");
    std::vector<ir::Dim> dims;
    ir::Index index = lower_index(var->binding, node, &dims);
    return mask_jagged_load(ir::Load::make(
        base, std::move(index),
        Type::tile_tensor(std::move(dims), binding(var->binding).type.dtype), node.range()));
  }
  if (type.kind == TypeKind::kTileTensor) return lower_tile_subscript(base, node);
  fail(DiagnosticKind::kTypeMismatch, node.range(),
       fmt::format("a value of type `{}` cannot be indexed", ir::type_to_string(type)));
}

namespace {

ArithKind arith_kind(ir::BinaryOp op) {
  switch (op) {
    case ir::BinaryOp::kDiv:
      return ArithKind::kTrueDivide;
    case ir::BinaryOp::kBitAnd:
    case ir::BinaryOp::kBitOr:
    case ir::BinaryOp::kBitXor:
    case ir::BinaryOp::kLShift:
    case ir::BinaryOp::kRShift:
      return ArithKind::kBitwise;
    case ir::BinaryOp::kAnd:
    case ir::BinaryOp::kOr:
      return ArithKind::kLogical;
    default:
      return ArithKind::kArithmetic;
  }
}

bool is_value(const Type& type) { return type.is_scalar() || type.is_array(); }

}  // namespace

Type KernelLowering::combine_types(const ir::Expr& a, const ir::Expr& b, ArithKind kind,
                                   SourceRange range) {
  const Type& ta = a.type;
  const Type& tb = b.type;
  for (const ir::Expr* side : {&a, &b}) {
    if (!is_value(side->type)) {
      fail(DiagnosticKind::kTypeMismatch, side->range,
           fmt::format("a value of type `{}` cannot be used in arithmetic",
                       ir::type_to_string(side->type)));
    }
  }
  if (ta.kind == TypeKind::kTensor || tb.kind == TypeKind::kTensor) {
    if (ta.kind == TypeKind::kTileTensor || tb.kind == TypeKind::kTileTensor) {
      fail(DiagnosticKind::kTypeMismatch, range,
           "a whole tensor cannot be combined with a tile; index it with the loop's tiles");
    }
    if (in_device()) {
      fail(DiagnosticKind::kTypeMismatch, range,
           "a whole tensor cannot be used in arithmetic inside a tile loop; index it with the "
           "loop's tiles");
    }
    // Host code on whole arrays (`return out0 + out1`): jnp broadcasting and promotion, which
    // agree with PyTorch's for the dtypes a TPU has.
    return host_array_type(ta, tb, kind);
  }
  if (ta.dtype && tb.dtype && *ta.dtype != *tb.dtype && ir::is_floating(*ta.dtype) &&
      ir::is_floating(*tb.dtype) && (ir::is_float8(*ta.dtype) || ir::is_float8(*tb.dtype))) {
    // Said here, since the module would fail while JAX traces (no implicit promotion).
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("`{}` and `{}` values cannot be combined: PyTorch and JAX promote no 8-bit "
                     "float; convert with `.to()` first",
                     ir::dtype_name(*ta.dtype), ir::dtype_name(*tb.dtype)));
  }
  const auto dtype = result_dtype(ta, tb, kind);
  if (ta.kind == TypeKind::kTileTensor || tb.kind == TypeKind::kTileTensor) {
    const std::vector<ir::Dim> empty;
    const auto& da = ta.kind == TypeKind::kTileTensor ? ta.dims : empty;
    const auto& db = tb.kind == TypeKind::kTileTensor ? tb.dims : empty;
    auto dims = unify_dims(da, db, range);
    if (!dims) {
      refuse_paired_tiles(da, db, range);
      fail(DiagnosticKind::kShapeMismatch, range,
           fmt::format("shapes {} and {} cannot be broadcast together", dims_to_string(kernel_, da),
                       dims_to_string(kernel_, db)));
    }
    return Type::tile_tensor(std::move(*dims), dtype);
  }
  // Two scalars: Python's rules (static values, or device scalars such as grid indices).
  if (kind == ArithKind::kComparison || kind == ArithKind::kLogical) {
    return Type::scalar(TypeKind::kBool);
  }
  if (kind == ArithKind::kTrueDivide || ta.kind == TypeKind::kFloat ||
      tb.kind == TypeKind::kFloat) {
    return Type::scalar(TypeKind::kFloat);
  }
  if (ta.kind == TypeKind::kBool && tb.kind == TypeKind::kBool && kind == ArithKind::kBitwise) {
    return Type::scalar(TypeKind::kBool);
  }
  return Type::scalar(TypeKind::kInt);
}

Type KernelLowering::host_array_type(const Type& a, const Type& b, ArithKind kind) {
  int rank = -1;
  const bool ranks_known = (a.kind != TypeKind::kTensor || a.rank_known()) &&
                           (b.kind != TypeKind::kTensor || b.rank_known());
  if (ranks_known) {
    rank = std::max(a.kind == TypeKind::kTensor ? a.rank : 0,
                    b.kind == TypeKind::kTensor ? b.rank : 0);
  }
  return Type::tensor(rank, result_dtype(a, b, kind));
}

ExprPtr KernelLowering::make_binary(ir::BinaryOp op, ExprPtr lhs, ExprPtr rhs, SourceRange range) {
  const ArithKind kind = arith_kind(op);
  // A tile in arithmetic with an int stands for its indices, as in Helion (`x[tile + 10]` reads
  // `x[tile.index + 10]`).
  const auto tile_as_index = [&](ExprPtr& side, const ExprPtr& other) {
    const Type& type = side->type;
    if (kind != ArithKind::kArithmetic || type.kind != TypeKind::kTile ||
        type.tile_dims.size() != 1 || type.variadic || other->type.kind != TypeKind::kInt) {
      return;
    }
    const int dim = type.tile_dims[0];
    side = ir::TileAttr::make(dim, ir::TileAttrKind::kIndex,
                              Type::tile_tensor({ir::Dim::tile(dim)}, ir::ScalarType::kInt32),
                              side->range);
  };
  tile_as_index(lhs, rhs);
  tile_as_index(rhs, lhs);
  adopt_block_dims(lhs, rhs, range);
  adopt_block_dims(rhs, lhs, range);
  pair_tiles(lhs, rhs, range);
  Type type = combine_types(*lhs, *rhs, kind, range);
  if (kind == ArithKind::kBitwise && type.dtype && ir::is_floating(*type.dtype)) {
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("`{}` needs integer or bool operands", ir::binary_op_spelling(op)));
  }
  return ir::Binary::make(op, std::move(lhs), std::move(rhs), std::move(type), range);
}

ExprPtr KernelLowering::make_compare(ir::CompareOp op, ExprPtr lhs, ExprPtr rhs,
                                     SourceRange range) {
  if (lhs->type.kind == TypeKind::kString || rhs->type.kind == TypeKind::kString) {
    // A `str` parameter against a literal (`mode == "add"`): decided while JAX traces.
    const bool equality = op == ir::CompareOp::kEq || op == ir::CompareOp::kNe;
    if (!equality || lhs->type.kind != rhs->type.kind) {
      fail(DiagnosticKind::kTypeMismatch, range,
           "a string can only be compared with `==` or `!=` to another string");
    }
    return ir::Compare::make(op, std::move(lhs), std::move(rhs), Type::scalar(TypeKind::kBool),
                             range);
  }
  Type type = combine_types(*lhs, *rhs, ArithKind::kComparison, range);
  if (type.kind == TypeKind::kTileTensor) type.dtype = ir::ScalarType::kBool;
  return ir::Compare::make(op, std::move(lhs), std::move(rhs), std::move(type), range);
}

ExprPtr KernelLowering::lower_binary(const SyntaxNode& node) {
  const SyntaxNode op_node = node.child_by_field("operator");
  if (op_node.text() == "@") {
    // Left before right, so that the first error reported is the leftmost (the order of a
    // call's arguments is the C++ compiler's choice).
    ExprPtr left = lower_expr(node.child_by_field("left"));
    ExprPtr right = lower_expr(node.child_by_field("right"));
    return make_matmul(left, right, "@", 0, node.range());
  }
  const auto op = binary_operator(op_node.text());
  if (!op) unsupported(op_node.range(), fmt::format("the operator `{}`", op_node.text()));
  ExprPtr lhs = lower_expr(node.child_by_field("left"));
  ExprPtr rhs = lower_expr(node.child_by_field("right"));
  return make_binary(*op, std::move(lhs), std::move(rhs), node.range());
}

ExprPtr KernelLowering::lower_unary(const SyntaxNode& node) {
  ExprPtr operand = lower_expr(node.child_by_field("argument"));
  // A whole tensor only in host code (`-x` before a launch), as in binary arithmetic.
  if (!is_value(operand->type) || (operand->type.kind == TypeKind::kTensor && in_device())) {
    fail(DiagnosticKind::kTypeMismatch, operand->range,
         fmt::format("a value of type `{}` cannot be used in arithmetic",
                     ir::type_to_string(operand->type)));
  }
  if (node.type() == "not_operator") {
    if (operand->type.is_array()) {
      fail(DiagnosticKind::kDataDependentControl, node.range(),
           "`not` needs a single truth value; use `~` on boolean tiles");
    }
    return ir::Unary::make(ir::UnaryOp::kNot, operand, Type::scalar(TypeKind::kBool), node.range());
  }
  const std::string_view op = node.child_by_field("operator").text();
  // `-1` is a constant (so `x.size(-1)` and `x.shape[-1]` keep a known axis).
  if (op == "-") {
    if (const auto* imm = operand->as<ir::IntImm>())
      return ir::IntImm::make(-imm->value, node.range());
    if (const auto* imm = operand->as<ir::FloatImm>()) {
      return ir::FloatImm::make(-imm->value, "-" + imm->spelling, node.range());
    }
  }
  const ir::UnaryOp kind = op == "-"   ? ir::UnaryOp::kNeg
                           : op == "+" ? ir::UnaryOp::kPos
                                       : ir::UnaryOp::kInvert;
  Type type = operand->type;
  if (kind == ir::UnaryOp::kInvert && type.dtype && ir::is_floating(*type.dtype)) {
    fail(DiagnosticKind::kTypeMismatch, node.range(), "`~` needs an integer or bool operand");
  }
  if (kind == ir::UnaryOp::kNeg && type.kind == TypeKind::kBool)
    type = Type::scalar(TypeKind::kInt);
  return ir::Unary::make(kind, operand, std::move(type), node.range());
}

ExprPtr KernelLowering::lower_comparison(const SyntaxNode& node) {
  // `a < b < c` is `a < b and b < c`; operands and operators alternate among the children.
  std::vector<SyntaxNode> operands;
  std::vector<SyntaxNode> operators;
  for (const SyntaxNode& child : node.children()) {
    (child.is_named() ? operands : operators).push_back(child);
  }
  // One comparison `operands[i] operators[i] operands[i + 1]`.
  const auto compare_pair = [&](size_t i) -> ExprPtr {
    const SourceRange range =
        operators.size() == 1 ? node.range() : operands[i].range().merge(operands[i + 1].range());
    std::string op_text;  // `is  not` spelled with any spacing
    for (char c : operators[i].text()) {
      if (c != ' ' || (!op_text.empty() && op_text.back() != ' ')) op_text += c;
    }
    const auto op = compare_operator(op_text);
    if (!op) {
      unsupported(operators[i].range(), fmt::format("the operator `{}`", operators[i].text()));
    }
    ExprPtr lhs = lower_expr(operands[i]);
    ExprPtr rhs = lower_expr(operands[i + 1]);
    if (*op == ir::CompareOp::kIs || *op == ir::CompareOp::kIsNot) {
      // `bias is not None` on an optional parameter: settled while JAX traces.
      if (rhs->type.kind != TypeKind::kNone) {
        unsupported(range, "`is` other than `x is None` / `x is not None`");
      }
      return ir::Compare::make(*op, std::move(lhs), std::move(rhs), Type::scalar(TypeKind::kBool),
                               range);
    }
    if (lhs->type.kind == TypeKind::kNone || rhs->type.kind == TypeKind::kNone) {
      unsupported(range, "comparing with `None` (use `is None`)");
    }
    const bool equality = *op == ir::CompareOp::kEq || *op == ir::CompareOp::kNe;
    if (lhs->type.kind == TypeKind::kDtype && rhs->type.kind == TypeKind::kDtype && equality) {
      // `x.dtype == torch.int8`, `x.dtype == y.dtype`: settled while JAX traces (an assert's
      // condition, a static `if`).
      return ir::Compare::make(*op, std::move(lhs), std::move(rhs), Type::scalar(TypeKind::kBool),
                               range);
    }
    if (lhs->type.kind == TypeKind::kShape && rhs->type.kind == TypeKind::kShape && equality) {
      // `a.shape == b.shape` (an assert's): tuples of sizes, compared while JAX traces.
      return ir::Compare::make(*op, std::move(lhs), std::move(rhs), Type::scalar(TypeKind::kBool),
                               range);
    }
    return make_compare(*op, std::move(lhs), std::move(rhs), range);
  };
  if (operators.size() == 1) return compare_pair(0);
  // `a == b == c` is `a == b and b == c` (on sizes and other single values; `b` has no side
  // effects to run twice).
  ExprPtr result;
  for (size_t i = 0; i < operators.size(); ++i) {
    ExprPtr pair = compare_pair(i);
    if (!pair->type.is_scalar()) {
      fail(DiagnosticKind::kDataDependentControl, pair->range,
           "a chained comparison needs single values; compare tiles one pair at a time and "
           "combine them with `&`");
    }
    result = result ? make_binary(ir::BinaryOp::kAnd, result, pair, node.range()) : pair;
  }
  return result;
}

ExprPtr KernelLowering::lower_boolean(const SyntaxNode& node) {
  ExprPtr lhs = lower_expr(node.child_by_field("left"));
  ExprPtr rhs = lower_expr(node.child_by_field("right"));
  for (const ExprPtr& side : {lhs, rhs}) {
    if (!side->type.is_scalar()) {
      fail(DiagnosticKind::kDataDependentControl, side->range,
           "`and`/`or` need single truth values; use `&`/`|` on boolean tiles");
    }
  }
  const ir::BinaryOp op =
      node.child_by_field("operator").text() == "and" ? ir::BinaryOp::kAnd : ir::BinaryOp::kOr;
  return make_binary(op, std::move(lhs), std::move(rhs), node.range());
}

std::vector<ExprPtr> KernelLowering::sequence_elements(const ExprPtr& value, SourceRange range) {
  const Type& type = value->type;
  if ((type.kind != TypeKind::kShape && type.kind != TypeKind::kTuple) || type.rank < 0) {
    unsupported(range, fmt::format("unpacking a `{}` here (a shape or tuple of known length "
                                   "is needed)",
                                   ir::type_to_string(type)));
  }
  if (const auto* tuple = value->as<ir::TupleExpr>()) return tuple->elements;
  std::vector<ExprPtr> elements;
  const auto* shape_of = value->as<ir::Call>();
  for (int i = 0; i < type.rank; ++i) {
    if (shape_of && shape_of->op == ir::Intrinsic::kShapeOf) {
      // `x.shape[1:]` keeps each size symbolic: x's axis i.
      elements.push_back(ir::Call::make(ir::Intrinsic::kSize,
                                        {shape_of->args[0], ir::IntImm::make(i, range)},
                                        Type::scalar(TypeKind::kInt), range));
    } else {
      Type element = type.kind == TypeKind::kShape ? Type::scalar(TypeKind::kInt)
                                                   : type.elements[static_cast<size_t>(i)];
      elements.push_back(ir::TupleGet::make(value, i, std::move(element), range));
    }
  }
  return elements;
}

ExprPtr KernelLowering::slice_sequence(const ExprPtr& base, const SyntaxNode& slice) {
  // `x.shape[1:]`, `t[:2]`: static bounds, no step, on a shape or tuple of known length.
  const SliceParts parts = slice_parts(slice);
  if (base->type.kind == TypeKind::kShape && base->type.rank < 0) {
    return slice_trace_time_shape(base, slice, parts);
  }
  const std::vector<ExprPtr> all = sequence_elements(base, base->range.merge(slice.range()));
  const auto n = static_cast<int64_t>(all.size());
  const auto bound = [&](int part, int64_t fallback) {
    const SyntaxNode node = parts[part];
    if (!node) return fallback;
    const ExprPtr value = lower_expr(node);
    const auto* imm = value->as<ir::IntImm>();
    if (!imm) unsupported(node.range(), "slicing a shape or tuple with a computed bound");
    const int64_t i = imm->value < 0 ? imm->value + n : imm->value;
    return std::clamp<int64_t>(i, 0, n);
  };
  if (parts[2]) unsupported(slice.range(), "slicing a shape with a step");
  const int64_t start = bound(0, 0);
  const int64_t stop = std::max(start, bound(1, n));
  std::vector<ExprPtr> elements(all.begin() + start, all.begin() + stop);
  std::vector<Type> types;
  for (const ExprPtr& e : elements) types.push_back(e->type);
  Type type = base->type.kind == TypeKind::kShape ? Type::shape(static_cast<int>(elements.size()))
                                                  : Type::tuple(std::move(types));
  return ir::TupleExpr::make(std::move(elements), std::move(type), slice.range());
}

// `q.size()[:-1]` of a tensor whose rank is known only while JAX traces: the slice stays a
// slice in the module (`q.shape[:-1]`), a shape of trace-time rank for host code (reshapes,
// views, allocations); its elements are not known here. Literal bounds only, no step.
ExprPtr KernelLowering::slice_trace_time_shape(const ExprPtr& base, const SyntaxNode& slice,
                                               const SliceParts& parts) {
  if (parts[2]) unsupported(slice.range(), "slicing a shape with a step");
  std::vector<ExprPtr> args = {base};
  for (int part = 0; part < 2; ++part) {
    if (!parts[part]) {
      args.push_back(ir::NoneImm::make(slice.range()));
      continue;
    }
    ExprPtr bound = lower_expr(parts[part]);
    if (bound->as<ir::IntImm>() == nullptr) {
      unsupported(parts[part].range(), "slicing a shape or tuple with a computed bound");
    }
    args.push_back(std::move(bound));
  }
  return ir::Call::make(ir::Intrinsic::kShapeSlice, std::move(args), Type::shape(-1),
                        base->range.merge(slice.range()));
}

ExprPtr KernelLowering::lower_sequence(const SyntaxNode& node) {
  std::vector<ExprPtr> elements;
  std::vector<Type> types;
  bool all_ints = true;
  std::vector<SourceRange> deferred;  // `*` of shapes of a rank not known yet
  for (const SyntaxNode& child : node.named_children()) {
    if (child.type() == "list_splat") {
      // `[n, *x.shape[1:]]`: the elements of a shape or tuple of known length.
      const SyntaxNode inner = child.named_children().front();
      ExprPtr unpacked = lower_expr(inner);
      if (unpacked->type.kind == TypeKind::kShape && unpacked->type.rank < 0) {
        deferred.push_back(child.range());
        types.push_back(unpacked->type);
        elements.push_back(std::move(unpacked));
        continue;
      }
      for (ExprPtr& e : sequence_elements(unpacked, inner.range())) {
        types.push_back(e->type);
        all_ints = all_ints && types.back().kind == TypeKind::kInt;
        elements.push_back(std::move(e));
      }
      continue;
    }
    elements.push_back(lower_expr(child));
    types.push_back(elements.back()->type);
    all_ints = all_ints && types.back().kind == TypeKind::kInt;
  }
  if (!deferred.empty()) {
    // Only sizes can stand beside such a shape (a list of them is a shape).
    if (!all_ints) unsupported(deferred.front(), "unpacking a shape into a list of other values");
    return defer_shape_splats(std::move(elements), std::move(deferred), node.range());
  }
  Type type = all_ints && !elements.empty() ? Type::shape(static_cast<int>(elements.size()))
                                            : Type::tuple(std::move(types));
  return ir::TupleExpr::make(std::move(elements), std::move(type), node.range());
}

ExprPtr KernelLowering::lower_dtype_expr(const SyntaxNode& node) {
  ExprPtr value = lower_expr(node);
  if (value->type.kind != TypeKind::kDtype) {
    fail(DiagnosticKind::kTypeMismatch, node.range(),
         fmt::format("expected a dtype such as `torch.float32`, not `{}`", node.text()));
  }
  return value;
}

ExprPtr KernelLowering::lower_shape_expr(const SyntaxNode& node) {
  ExprPtr value = lower_expr(node);
  if (value->type.kind != TypeKind::kShape) {
    fail(DiagnosticKind::kTypeMismatch, node.range(),
         fmt::format("expected a shape (`x.size()` or a list of sizes), not `{}`", node.text()));
  }
  return value;
}

}  // namespace helionc::frontend

namespace helionc::frontend {

ExprPtr KernelLowering::lower_conditional(const SyntaxNode& node) {
  // `a if condition else b` chooses while JAX traces, as Python does: the condition must be
  // known then (a size, a flag, a dtype), and a constant one lowers only its branch.
  const auto parts = node.named_children();
  if (parts.size() != 3) unsupported(node.range(), "this conditional expression");
  const ExprPtr condition = lower_expr(parts[1]);
  if (!condition->type.is_scalar() || is_device_value(condition)) {
    unsupported(node.range(),
                "a conditional expression on a value computed in the kernel (use `torch.where` "
                "on tiles)");
  }
  if (const auto* constant = condition->as<ir::BoolImm>()) {
    return lower_expr(parts[constant->value ? 0 : 2]);
  }
  const ExprPtr a = lower_expr(parts[0]);
  const ExprPtr b = lower_expr(parts[2]);
  Type type = a->type;
  if (a->type.is_scalar() && b->type.is_scalar()) {
    // An int and a float: the float's type (Python's result is either, by the condition).
    type = combine_types(*a, *b, ArithKind::kArithmetic, node.range());
  } else if (a->type.kind != b->type.kind ||
             (a->type.kind == TypeKind::kTileTensor && a->type.dims != b->type.dims) ||
             (a->type.kind == TypeKind::kTensor && a->type.rank != b->type.rank)) {
    fail(DiagnosticKind::kTypeMismatch, node.range(),
         fmt::format("a conditional expression whose branches differ in type (`{}` and `{}`) is "
                     "not supported: helionc types the result before the condition is known",
                     ir::type_to_string(a->type), ir::type_to_string(b->type)));
  } else if (a->type.dtype != b->type.dtype) {
    type.dtype = std::nullopt;  // either, by the condition
  }
  return ir::Call::make(ir::Intrinsic::kIfElse, {condition, a, b}, std::move(type), node.range());
}

}  // namespace helionc::frontend
