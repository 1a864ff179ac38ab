// Call handlers: torch.* and hl.* functions (through the import table), tensor methods, and
// the few Python builtins kernels use. Anything else is reported by name.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/function_table.h"
#include "frontend/kernel_lowering.h"
#include "ir/visitor.h"
#include "ops/operations.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

CallArgs KernelLowering::split_args(const SyntaxNode& call) {
  CallArgs args{call, {}, {}};
  const SyntaxNode list = call.child_by_field("arguments");
  if (list.type() != "argument_list") unsupported(list.range(), "a generator argument");
  for (const SyntaxNode& arg : list.named_children()) {
    if (arg.type() == "keyword_argument") {
      args.keywords.emplace_back(std::string(arg.child_by_field("name").text()),
                                 arg.child_by_field("value"));
    } else if (arg.type() == "dictionary_splat") {
      unsupported(arg.range(), "`**kwargs` in a call");
    } else if (arg.type() == "list_splat") {
      if (!args.splat) args.splat = arg;
      args.positional.push_back(arg);
    } else {
      args.positional.push_back(arg);
    }
  }
  return args;
}

void KernelLowering::check_arity(const CallArgs& args, std::string_view name, size_t min,
                                 size_t max, std::initializer_list<std::string_view> keywords) {
  if (args.splat) {
    unsupported(args.splat.range(),
                fmt::format("`*args` in a call of `{}` (only the sizes of a host `.view()` or "
                            "`.reshape()`, as in `out.view(*x.size(), n)`, are unpacked yet)",
                            name));
  }
  if (args.positional.size() < min || args.positional.size() > max) {
    const std::string expected =
        min == max ? std::to_string(min) : fmt::format("{} to {}", min, max);
    fail(DiagnosticKind::kWrongArity, args.call.range(),
         fmt::format("`{}` takes {} positional argument{} but {} {} given", name, expected,
                     max == 1 ? "" : "s", args.positional.size(),
                     args.positional.size() == 1 ? "was" : "were"));
  }
  for (const auto& [key, value] : args.keywords) {
    if (std::find(keywords.begin(), keywords.end(), key) == keywords.end()) {
      fail(DiagnosticKind::kBadArgument, value.parent().range(),
           fmt::format("`{}` has no keyword argument `{}` that helionc understands", name, key));
    }
  }
}

SyntaxNode KernelLowering::argument(const CallArgs& args, size_t position, std::string_view name) {
  const SyntaxNode keyword = args.keyword(name);
  if (position >= args.positional.size()) return keyword;
  if (keyword) {
    fail(DiagnosticKind::kBadArgument, keyword.parent().range(),
         fmt::format("`{}` is given twice: as positional argument {} and by keyword", name,
                     position + 1));
  }
  return args.positional[position];
}

ExprPtr KernelLowering::lower_call(const SyntaxNode& node) {
  if (chained_allocation_ && chained_allocation_->first.begin == node.range().begin &&
      chained_allocation_->first.end == node.range().end) {
    const int allocated = chained_allocation_->second;  // lower_assignment allocated it
    return ir::VarRef::make(allocated, binding(allocated).type, node.range());
  }
  const SyntaxNode callee = node.child_by_field("function");
  if (ExprPtr sequence = lower_sequence_call(node)) return sequence;  // may take a generator
  const CallArgs args = split_args(node);
  if (auto name = imports_.qualified_name(callee)) return lower_qualified_call(*name, args);
  if (callee.type() == "attribute") {
    return lower_method_call(callee.child_by_field("object"),
                             callee.child_by_field("attribute").text(), args);
  }
  if (callee.type() == "identifier") {
    check_lambda_callee(callee);
    if (auto it = scope_.find(callee.text()); it != scope_.end() && lambdas_.count(it->second)) {
      return inline_lambda(it->second, args);
    }
    if (auto it = scope_.find(callee.text());
        it != scope_.end() && runtime_callables_.count(it->second)) {
      return lower_callable_call(it->second, args);
    }
    // A helper body sees no kernel local (check_lambda_callee reported one by that name).
    if (!scope_.count(callee.text()) || !lambda_frames_.empty()) {
      if (ExprPtr inlined = lower_helper_call(callee.text(), args)) return inlined;
    }
    if (!scope_.count(callee.text())) return lower_builtin_call(callee.text(), args);
  }
  fail(DiagnosticKind::kUnknownFunction, callee.range(),
       fmt::format("`{}` cannot be called in a kernel", callee.text()));
}

ExprPtr KernelLowering::make_math(Intrinsic op, ExprPtr x, SourceRange range) {
  if (x->type.kind != TypeKind::kTileTensor) {
    fail(DiagnosticKind::kTypeMismatch, x->range,
         fmt::format("`{}` needs a tile of values here, not `{}`", ir::intrinsic_name(op),
                     ir::type_to_string(x->type)));
  }
  Type type = x->type;
  // The ops table's dtype rule (a unary operation's: never kPromote).
  const ops::Operation* operation = ops::find(op);
  switch (operation != nullptr ? operation->dtype : ops::DtypeRule::kFloatMath) {
    case ops::DtypeRule::kSame:
    case ops::DtypeRule::kPromote:
      break;
    case ops::DtypeRule::kBool:
      type.dtype = ir::ScalarType::kBool;
      break;
    case ops::DtypeRule::kFloatMath:
      type.dtype = float_math_dtype(x->type);
      break;
  }
  return ir::Call::make(op, {std::move(x)}, std::move(type), range);
}

ExprPtr KernelLowering::make_cast(ExprPtr value, ExprPtr dtype, SourceRange range) {
  if (!value->type.is_array() && !value->type.is_scalar()) {
    fail(DiagnosticKind::kTypeMismatch, value->range,
         fmt::format("cannot convert a value of type `{}`", ir::type_to_string(value->type)));
  }
  if (!value->type.is_array()) unsupported(range, "converting a static scalar");
  Type type = value->type;
  const auto* imm = dtype->as<ir::DtypeImm>();
  type.dtype = imm ? std::optional(imm->dtype) : std::nullopt;
  return ir::Call::make(Intrinsic::kCast, {std::move(value), std::move(dtype)}, std::move(type),
                        range);
}

ExprPtr KernelLowering::make_full_like(ExprPtr like, ExprPtr fill, ExprPtr dtype,
                                       SourceRange range) {
  if (like->type.kind != TypeKind::kTileTensor) {
    fail(DiagnosticKind::kTypeMismatch, like->range,
         "in device code `*_like` creates a tile shaped like another tile");
  }
  if (!fill->type.is_scalar()) {
    fail(DiagnosticKind::kTypeMismatch, fill->range, "the fill value must be a scalar");
  }
  Type type = like->type;
  if (dtype) {
    const auto* imm = dtype->as<ir::DtypeImm>();
    type.dtype = imm ? std::optional(imm->dtype) : std::nullopt;
  } else {
    dtype = ir::NoneImm::make(range);
  }
  return ir::Call::make(Intrinsic::kFullLike, {std::move(like), std::move(fill), std::move(dtype)},
                        std::move(type), range);
}

namespace {

bool is_helion(const std::string& name, std::string_view fn) {
  return name == fmt::format("helion.language.{}", fn);
}

}  // namespace

std::optional<std::string_view> KernelLowering::plain_string(const SyntaxNode& node) {
  const std::string_view text = node.text();
  if (node.type() != "string" || text.size() < 2) return std::nullopt;
  const char quote = text.front();
  if ((quote != '"' && quote != '\'') || text.back() != quote) return std::nullopt;
  const std::string_view inner = text.substr(1, text.size() - 2);
  // Prefixes, triple quotes and escapes are not plain: refused as a value they cannot match.
  if (inner.find_first_of("\\\"'") != std::string_view::npos) return std::nullopt;
  return inner;
}

ExprPtr KernelLowering::lower_qualified_call(const std::string& name, const CallArgs& args) {
  const SourceRange range = args.call.range();
  const std::string shown(args.call.child_by_field("function").text());
  if (auto fn = unary_function(name)) {
    check_arity(args, shown, 1, 1, {});
    return make_math(fn->op, lower_expr(args.positional[0]), range);
  }
  if (name == "torch.nn.functional.gelu") {
    check_arity(args, shown, 1, 1, {"approximate"});
    Intrinsic op = Intrinsic::kGelu;
    if (const SyntaxNode approx = args.keyword("approximate")) {
      const std::optional<std::string_view> text = plain_string(approx);
      if (text == "tanh") {
        op = Intrinsic::kGeluTanh;
      } else if (text != "none") {
        fail(DiagnosticKind::kBadArgument, approx.range(),
             "`approximate` must be \"none\" or \"tanh\"");
      }
    }
    return make_math(op, lower_expr(args.positional[0]), range);
  }
  if (name == "torch.maximum" || name == "torch.minimum" ||
      ((name == "torch.max" || name == "torch.min") && args.positional.size() == 2 &&
       args.keywords.empty() && args.positional[1].type() != "integer" &&
       args.positional[1].type() != "unary_operator")) {
    check_arity(args, shown, 2, 2, {});
    ExprPtr a = lower_expr(args.positional[0]);
    ExprPtr b = lower_expr(args.positional[1]);
    Type type = combine_types(*a, *b, ArithKind::kArithmetic, range);
    const bool is_max = name == "torch.maximum" || name == "torch.max";
    return ir::Call::make(is_max ? Intrinsic::kMaximum : Intrinsic::kMinimum, {a, b},
                          std::move(type), range);
  }
  if (name == "torch.where") {
    check_arity(args, shown, 3, 3, {});
    ExprPtr cond = lower_expr(args.positional[0]);
    ExprPtr a = lower_expr(args.positional[1]);
    ExprPtr b = lower_expr(args.positional[2]);
    Type type = combine_types(*a, *b, ArithKind::kArithmetic, range);
    Type with_cond = combine_types(*cond, *a, ArithKind::kComparison, range);
    if (with_cond.kind == TypeKind::kTileTensor) {
      if (type.kind != TypeKind::kTileTensor) type = Type::tile_tensor({}, type.dtype);
      auto dims = unify_dims(with_cond.dims, type.dims, range);
      if (!dims) fail(DiagnosticKind::kShapeMismatch, range, "the condition does not broadcast");
      type = Type::tile_tensor(std::move(*dims), type.dtype);
    }
    return ir::Call::make(Intrinsic::kWhere, {cond, a, b}, std::move(type), range);
  }
  if (name == "torch.add" || name == "torch.sub" || name == "torch.mul" || name == "torch.div" ||
      name == "torch.pow") {
    const bool scaled = name == "torch.add" || name == "torch.sub";
    if (scaled) {
      check_arity(args, shown, 2, 2, {"alpha"});
    } else {
      check_arity(args, shown, 2, 2, {});
    }
    const ir::BinaryOp op = name == "torch.add"   ? ir::BinaryOp::kAdd
                            : name == "torch.sub" ? ir::BinaryOp::kSub
                            : name == "torch.mul" ? ir::BinaryOp::kMul
                            : name == "torch.div" ? ir::BinaryOp::kDiv
                                                  : ir::BinaryOp::kPow;
    ExprPtr other = lower_expr(args.positional[1]);
    // `torch.add(a, b, alpha=s)` is a + s * b (and sub a - s * b), as PyTorch defines it.
    if (const SyntaxNode alpha = scaled ? args.keyword("alpha") : SyntaxNode()) {
      other = make_binary(ir::BinaryOp::kMul, lower_expr(alpha), std::move(other), range);
    }
    return make_binary(op, lower_expr(args.positional[0]), std::move(other), range);
  }
  if (name == "torch.lerp") {
    // start + weight * (end - start), PyTorch's definition (its kernels pick between this and
    // an end-anchored form for accuracy near weight 1; the difference is rounding).
    check_arity(args, shown, 3, 3, {});
    ExprPtr start = lower_expr(args.positional[0]);
    ExprPtr end = lower_expr(args.positional[1]);
    ExprPtr weight = lower_expr(args.positional[2]);
    ExprPtr step = make_binary(ir::BinaryOp::kSub, std::move(end), start, range);
    return make_binary(ir::BinaryOp::kAdd, start,
                       make_binary(ir::BinaryOp::kMul, std::move(weight), std::move(step), range),
                       range);
  }
  if (name == "torch.full_like" || name == "torch.zeros_like" || name == "torch.ones_like" ||
      name == "torch.empty_like") {
    if (!in_device()) {
      fail(DiagnosticKind::kUnsupported, range,
           fmt::format("`{}` in host code must be assigned directly to a name", shown));
    }
    const bool full = name == "torch.full_like";
    check_arity(args, shown, full ? 2 : 1, full ? 2 : 1, {"dtype", "device"});
    ExprPtr like = lower_expr(args.positional[0]);
    ExprPtr fill = full                        ? lower_expr(args.positional[1])
                   : name == "torch.ones_like" ? ir::IntImm::make(1, range)
                                               : ir::IntImm::make(0, range);
    ExprPtr dtype;
    if (const SyntaxNode node = args.keyword("dtype")) dtype = lower_dtype_expr(node);
    return make_full_like(std::move(like), std::move(fill), std::move(dtype), range);
  }
  if (name == "torch.tensor" && in_device()) {
    // `torch.tensor(val, dtype=)` of a number in device code is a 0-d tensor, which PyTorch's
    // promotion treats as a Python number of its kind (it may change a tile's category, int to
    // float, never its width): the number itself, converted to the dtype's kind.
    check_arity(args, shown, 1, 1, {"dtype", "device", "requires_grad"});
    ExprPtr value = lower_expr(args.positional[0]);
    if (!value->type.is_scalar() || is_device_value(value)) {
      unsupported(range,
                  "`torch.tensor` in device code of anything but a number known while JAX "
                  "traces the kernel");
    }
    const SyntaxNode dtype_node = args.keyword("dtype");
    if (!dtype_node) return value;
    const ExprPtr dtype = lower_dtype_expr(dtype_node);
    const auto* imm = dtype->as<ir::DtypeImm>();
    if (!imm) {
      unsupported(dtype_node.range(), "a `torch.tensor` dtype known only while JAX traces");
    }
    if (ir::is_floating(imm->dtype)) {
      if (value->type.kind == TypeKind::kFloat) return value;
      if (const auto* number = value->as<ir::IntImm>()) {
        return ir::FloatImm::make(static_cast<double>(number->value),
                                  fmt::format("{}.0", number->value), range);
      }
      return make_binary(ir::BinaryOp::kMul, std::move(value),
                         ir::FloatImm::make(1.0, "1.0", range), range);
    }
    if (imm->dtype == ir::ScalarType::kBool || value->type.kind != TypeKind::kInt) {
      unsupported(range, fmt::format("`torch.tensor` of a {} as {} in device code",
                                     ir::type_to_string(value->type), ir::dtype_name(imm->dtype)));
    }
    return value;
  }
  if (name == "torch.get_default_dtype") {
    // PyTorch's default float dtype unless the program sets another (helionc cannot see that):
    // float32, which is also JAX's without x64.
    check_arity(args, shown, 0, 0, {});
    return ir::DtypeImm::make(ir::ScalarType::kFloat32, range);
  }
  if (name == "torch.promote_types") {
    check_arity(args, shown, 2, 2, {});
    ExprPtr a = lower_dtype_expr(args.positional[0]);
    ExprPtr b = lower_dtype_expr(args.positional[1]);
    return ir::Call::make(Intrinsic::kPromoteTypes, {a, b}, Type::dtype_value(), range);
  }
  if (name == "torch.broadcast_tensors") {
    if (in_device()) unsupported(range, "`torch.broadcast_tensors` in device code");
    if (args.positional.empty()) check_arity(args, shown, 1, 64, {});
    check_arity(args, shown, 1, 64, {});
    std::vector<ExprPtr> tensors;
    std::vector<Type> types;
    int rank = 0;  // the broadcast rank: the largest, unless one is known only at trace time
    for (const SyntaxNode& arg : args.positional) {
      tensors.push_back(lower_expr(arg));
      if (tensors.back()->type.kind != TypeKind::kTensor) {
        fail(DiagnosticKind::kTypeMismatch, arg.range(), "`torch.broadcast_tensors` takes tensors");
      }
      const auto* var = tensors.back()->as<ir::VarRef>();
      const int r = var ? binding(var->binding).type.rank : -1;
      rank = (r < 0 || rank < 0) ? -1 : std::max(rank, r);
    }
    for (const ExprPtr& tensor : tensors) types.push_back(Type::tensor(rank, tensor->type.dtype));
    return ir::Call::make(Intrinsic::kBroadcastTensors, std::move(tensors),
                          Type::tuple(std::move(types)), range);
  }
  if (ExprPtr result = lower_product_function(name, args)) return result;
  if (ExprPtr result = lower_tile_function(name, args)) return result;
  if (name.rfind("math.", 0) == 0) {
    // math.* on static scalars (`math.sqrt(head_dim)`): plain Python at trace time.
    auto fn = name == "math.fabs" ? unary_function("torch.abs")
                                  : unary_function("torch." + name.substr(5));
    if (fn) {
      check_arity(args, shown, 1, 1, {});
      ExprPtr x = lower_expr(args.positional[0]);
      if (x->type.kind != TypeKind::kInt && x->type.kind != TypeKind::kFloat) {
        fail(DiagnosticKind::kTypeMismatch, x->range,
             fmt::format("`{}` takes a static number, not `{}`", shown,
                         ir::type_to_string(x->type)));
      }
      const bool integral = name == "math.floor" || name == "math.ceil" || name == "math.trunc";
      return ir::Call::make(fn->op, {x}, Type::scalar(integral ? TypeKind::kInt : TypeKind::kFloat),
                            range);
    }
    if (name == "math.pow") {
      check_arity(args, shown, 2, 2, {});
      // Operands lowered in source order, so that the first error reported is the leftmost
      // (the order of a call's arguments is the C++ compiler's choice).
      ExprPtr base = lower_expr(args.positional[0]);
      ExprPtr exponent = lower_expr(args.positional[1]);
      return make_binary(ir::BinaryOp::kPow, std::move(base), std::move(exponent), range);
    }
  }
  if (is_helion(name, "load")) return lower_hl_load(args);
  if (ExprPtr random = lower_random(name, args)) return random;
  if (ExprPtr scan = lower_scan_call(name, args)) return scan;
  if (is_helion(name, "tile_index")) {  // `hl.tile_index(tile)` is `tile.index`
    check_arity(args, shown, 1, 1, {});
    ExprPtr tile = lower_expr(args.positional[0]);
    if (tile->type.kind != TypeKind::kTile) {
      fail(DiagnosticKind::kTypeMismatch, args.positional[0].range(),
           fmt::format("`{}` takes a tile, not `{}`", shown, ir::type_to_string(tile->type)));
    }
    return lower_tile_attribute(tile, "index", range);
  }
  if (is_atomic_call(args.call)) {
    unsupported(range, fmt::format("`{}` inside an expression (use it as a statement, or as the "
                                   "whole right-hand side of an assignment)",
                                   shown));
  }
  if (ExprPtr value = lower_host_int_call(name, args)) return value;
  if (is_helion(name, "specialize")) {
    // Sizes are static while JAX traces the generated module: specialising changes nothing.
    check_arity(args, shown, 1, 1, {});
    ExprPtr value = lower_expr(args.positional[0]);
    // Also a tuple of them (`hl.specialize((x.stride(0), x.stride(1)))`).
    const auto is_size = [](const Type& type) {
      return type.kind == TypeKind::kInt || type.kind == TypeKind::kShape;
    };
    const bool sizes =
        value->type.kind == TypeKind::kTuple &&
        std::all_of(value->type.elements.begin(), value->type.elements.end(),
                    [&](const Type& element) { return element.kind == TypeKind::kInt; });
    if (!is_size(value->type) && !sizes) {
      fail(DiagnosticKind::kTypeMismatch, value->range, "`hl.specialize` takes a size");
    }
    return value;
  }
  if (is_helion(name, "tile") || is_helion(name, "grid")) {
    fail(DiagnosticKind::kUnsupported, range,
         fmt::format("`{}` can only be iterated by a `for` loop", shown));
  }
  if (name.rfind("torch.", 0) == 0 && ir::is_64bit_torch_dtype(name.substr(6))) {
    dtype_constant(args.call.child_by_field("function"));
  }
  if (const std::optional<std::string_view> reason = gpu_only_reason(name)) {
    fail(DiagnosticKind::kUnsupported, args.call.child_by_field("function").range(),
         fmt::format("`{}` is not possible on a TPU: {}", shown, *reason));
  }
  if (!in_device() && is_allocation_call(args.call)) {
    // `return torch.zeros([]), out`: the allocation forms are statements of their own.
    fail(DiagnosticKind::kUnsupported, range,
         fmt::format("`{0}` in host code must be assigned directly to a name (`out = {0}(...)`)",
                     shown));
  }
  if (name.rfind("helion.", 0) == 0 || name.rfind("torch.", 0) == 0 ||
      name.rfind("math.", 0) == 0) {
    fail(DiagnosticKind::kUnknownFunction, args.call.child_by_field("function").range(),
         fmt::format("`{}` is not supported by helionc{}", shown,
                     did_you_mean_function(name, shown)));
  }
  fail(DiagnosticKind::kUnknownFunction, args.call.child_by_field("function").range(),
       fmt::format("calling `{}` from a kernel is not supported; only torch, hl and math "
                   "functions are, and plain functions of this file (inlined)",
                   shown));
}

ExprPtr KernelLowering::lower_method_call(const SyntaxNode& receiver_node, std::string_view method,
                                          const CallArgs& args) {
  const SourceRange range = args.call.range();
  ExprPtr receiver = lower_expr(receiver_node);
  const Type& type = receiver->type;
  const std::string shown = fmt::format(".{}()", method);
  if (!type.is_array()) {
    fail(DiagnosticKind::kTypeMismatch, receiver_node.range(),
         fmt::format("a value of type `{}` has no method `{}`", ir::type_to_string(type), method));
  }
  if (type.kind == TypeKind::kTensor) {
    if (method == "size") {
      check_arity(args, shown, 0, 1, {});
      if (args.positional.empty()) {
        return ir::Call::make(Intrinsic::kShapeOf, {receiver}, Type::shape(type.rank), range);
      }
      ExprPtr axis = lower_expr(args.positional[0]);
      const auto* imm = axis->as<ir::IntImm>();
      if (!imm) unsupported(axis->range, "`size()` with a computed dimension");
      if (type.rank >= 0 && (imm->value >= type.rank || imm->value < -type.rank)) {
        fail(DiagnosticKind::kRankMismatch, axis->range,
             fmt::format("dimension {} is out of range for `{}` with {} dimension{}", imm->value,
                         receiver_node.text(), type.rank, type.rank == 1 ? "" : "s"));
      }
      return ir::Call::make(Intrinsic::kSize, {receiver, axis}, Type::scalar(TypeKind::kInt),
                            range);
    }
    if (method == "dim" || method == "ndimension") {
      check_arity(args, shown, 0, 0, {});
      return ir::Call::make(Intrinsic::kNdim, {receiver}, Type::scalar(TypeKind::kInt), range);
    }
    if (method == "numel") {
      check_arity(args, shown, 0, 0, {});
      return ir::Call::make(Intrinsic::kNumel, {receiver}, Type::scalar(TypeKind::kInt), range);
    }
    if (method == "stride") return lower_stride(receiver, receiver_node, args);
    if (in_device() && (method == "new_empty" || method == "new_zeros" || method == "new_full" ||
                        method == "new_ones")) {
      // A tile as torch.zeros/full make one in device code, of the receiver's dtype unless
      // given (PyTorch's rule); an empty tile is zeros (its values are undefined).
      ExprPtr dtype = receiver->type.dtype ? ir::DtypeImm::make(*receiver->type.dtype, range)
                                           : ir::Call::make(Intrinsic::kDtypeOf, {receiver},
                                                            Type::scalar(TypeKind::kDtype), range);
      return make_filled_tile(args, shown,
                              method == "new_full"   ? -1
                              : method == "new_ones" ? 1
                                                     : 0,
                              /*torch_form=*/true, std::move(dtype));
    }
    if (method == "new_empty" || method == "new_zeros" || method == "new_full" ||
        method == "new_ones") {
      fail(DiagnosticKind::kUnsupported, range,
           fmt::format("`{}` must be assigned directly to a name", shown));
    }
    if (ExprPtr result = lower_host_method(receiver, method, args)) return result;
    if (method == "item") {
      return in_device() ? lower_device_item(receiver, args) : lower_item(receiver, args);
    }
    if (!in_device()) {
      if (ExprPtr cast = lower_cast_method(receiver, method, args)) return cast;
    }
    fail(DiagnosticKind::kUnsupported, range,
         fmt::format("the tensor method `{}` {} is not supported yet{}", shown,
                     in_device() ? "on a whole tensor in device code" : "in host code",
                     did_you_mean_method(method)));
  }
  // Tile tensors.
  if (method == "item") return lower_device_item(receiver, args);
  if (ExprPtr result = lower_product_method(receiver, method, args)) return result;
  if (ExprPtr result = lower_tile_method(receiver, method, args)) return result;
  if (auto fn = unary_method(method)) {
    check_arity(args, shown, 0, 0, {});
    return make_math(fn->op, receiver, range);
  }
  if (ExprPtr cast = lower_cast_method(receiver, method, args)) return cast;
  fail(DiagnosticKind::kUnsupported, range,
       fmt::format("the tile method `{}` is not supported yet{}", shown,
                   did_you_mean_method(method)));
}

// `.to(dtype)`, `.float()` & co. on a tile or (in host code) a whole tensor; null for other
// methods.
ExprPtr KernelLowering::lower_cast_method(const ExprPtr& receiver, std::string_view method,
                                          const CallArgs& args) {
  const SourceRange range = args.call.range();
  const std::string shown = fmt::format(".{}()", method);
  if (method == "to" || method == "type") {
    check_arity(args, shown, 0, 1, {"dtype", "device"});
    const SyntaxNode dtype_node =
        args.positional.empty() ? args.keyword("dtype") : args.positional[0];
    if (!dtype_node) {
      // `.to(device=...)` alone moves nothing: JAX places arrays itself.
      if (args.keyword("device")) return receiver;
      fail(DiagnosticKind::kWrongArity, range, fmt::format("`{}` needs a dtype", shown));
    }
    ExprPtr target = lower_expr(dtype_node);
    if (target->type.kind == TypeKind::kDevice) return receiver;  // `x.to(device)`
    if (target->type.kind != TypeKind::kDtype) {
      fail(DiagnosticKind::kTypeMismatch, dtype_node.range(),
           fmt::format("expected a dtype such as `torch.float32`, not `{}`", dtype_node.text()));
    }
    return make_cast(receiver, std::move(target), range);
  }
  if (method == "long") {  // as `.to(torch.int64)`: int32 (lower_expressions.cpp)
    check_arity(args, shown, 0, 0, {});
    narrowed_int64(range, fmt::format("`{}`", shown));
    return make_cast(receiver, ir::DtypeImm::make(ir::ScalarType::kInt32, range), range);
  }
  if (is_64bit_conversion_method(method)) {
    fail(DiagnosticKind::kUnsupportedDtype, range,
         fmt::format("`{}` converts to a 64-bit type and TPUs have none", shown));
  }
  if (auto dtype = conversion_method(method)) {
    check_arity(args, shown, 0, 0, {});
    return make_cast(receiver, ir::DtypeImm::make(*dtype, range), range);
  }
  return nullptr;
}

ExprPtr KernelLowering::lower_static_builtin(std::string_view name, const CallArgs& args) {
  // Python's own functions on what the kernel knows statically (sizes, scalar arguments): the
  // module computes them in Python while JAX traces.
  const SourceRange range = args.call.range();
  const auto is_number = [](const ExprPtr& e) { return e->type.is_scalar(); };
  if (name == "len" && args.positional.size() == 1 && args.keywords.empty()) {
    if (ExprPtr length = lower_pack_len(args.positional[0])) return length;
    ExprPtr value = lower_expr(args.positional[0]);
    if (value->type.kind == TypeKind::kTensor) {
      // `len(x)` is x's first size.
      return ir::Call::make(Intrinsic::kSize, {value, ir::IntImm::make(0, range)},
                            Type::scalar(TypeKind::kInt), range);
    }
    if ((value->type.kind == TypeKind::kShape || value->type.kind == TypeKind::kTuple) &&
        value->type.rank >= 0) {
      return ir::IntImm::make(value->type.rank, range);
    }
    if (value->type.kind == TypeKind::kShape) {
      // A shape of trace-time rank: `x.size()` has x's rank, a list argument its length.
      if (const auto* call = value->as<ir::Call>(); call && call->op == Intrinsic::kShapeOf) {
        return ir::Call::make(Intrinsic::kNdim, {call->args[0]}, Type::scalar(TypeKind::kInt),
                              range);
      }
      return ir::Call::make(Intrinsic::kLen, {value}, Type::scalar(TypeKind::kInt), range);
    }
    unsupported(range, fmt::format("`len` of a `{}`", ir::type_to_string(value->type)));
  }
  if ((name == "min" || name == "max") && args.positional.size() >= 2 && args.keywords.empty()) {
    // Of numbers: static ones, or device scalars (`min(tile.end, n)`), which the backends
    // print as jnp.minimum/maximum because Python's min cannot compare traced values. A 0-d
    // tile (`offsets[seq]` in an `hl.grid` loop) is one such device value too.
    const auto is_device_number = [&](const ExprPtr& e) {
      return is_number(e) || (e->type.kind == TypeKind::kTileTensor && e->type.dims.empty());
    };
    ExprPtr result = lower_expr(args.positional[0]);
    for (size_t i = 0; i < args.positional.size(); ++i) {
      ExprPtr next = i == 0 ? result : lower_expr(args.positional[i]);
      if (!is_device_number(next)) {
        unsupported(next->range,
                    fmt::format("`{}` of tensors or tiles (use `torch.{}imum`)", name, name));
      }
      if (i == 0) continue;
      Type type = combine_types(*result, *next, ArithKind::kArithmetic, range);
      result = ir::Call::make(name == "max" ? Intrinsic::kMaximum : Intrinsic::kMinimum,
                              {result, next}, std::move(type), range);
    }
    return result;
  }
  if ((name == "int" || name == "abs") && args.positional.size() == 1 && args.keywords.empty()) {
    ExprPtr value = lower_expr(args.positional[0]);
    if (!is_number(value) || ir::reads_kernel_values(kernel_, value)) {
      unsupported(range, fmt::format("`{}` of values computed in device code or tensors", name));
    }
    if (name == "abs") return ir::Call::make(Intrinsic::kAbs, {value}, value->type, range);
    // `t.item()` of a dtype known only while JAX traces is typed an int but may be a float.
    const auto* item = value->as<ir::Call>();
    const bool maybe_float =
        item && item->op == Intrinsic::kItem && !item->args[0]->type.dtype.has_value();
    if (value->type.kind == TypeKind::kInt && !maybe_float) return value;
    if (const auto* imm = value->as<ir::FloatImm>()) {
      return ir::IntImm::make(static_cast<int64_t>(imm->value), range);
    }
    // Python's int() of a float truncates toward zero, as math.trunc does.
    return ir::Call::make(Intrinsic::kTrunc, {value}, Type::scalar(TypeKind::kInt), range);
  }
  if (name == "float" && args.positional.size() == 1 && args.keywords.empty()) {
    ExprPtr value = lower_expr(args.positional[0]);
    if (!is_number(value) || ir::reads_kernel_values(kernel_, value)) {
      unsupported(range, "`float` of values computed in device code or tensors (use `.to(...)`)");
    }
    if (value->type.kind == TypeKind::kFloat) return value;
    if (const auto* imm = value->as<ir::IntImm>()) {
      return ir::FloatImm::make(static_cast<double>(imm->value), fmt::format("{}.0", imm->value),
                                range);
    }
    // `float(n)` of a size known while JAX traces: Python's `n * 1.0` converts n the same way.
    return make_binary(ir::BinaryOp::kMul, std::move(value), ir::FloatImm::make(1.0, "1.0", range),
                       range);
  }
  return nullptr;
}

ExprPtr KernelLowering::lower_builtin_call(std::string_view name, const CallArgs& args) {
  const SourceRange range = args.call.range();
  if (name == "float" && args.positional.size() == 1 && args.positional[0].type() == "string") {
    check_arity(args, "float", 1, 1, {});
    std::string text(args.positional[0].text());
    std::string inner = text.substr(1, text.size() - 2);
    for (char& c : inner) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    double value = 0;
    if (inner == "inf" || inner == "+inf" || inner == "infinity") {
      value = HUGE_VAL;
    } else if (inner == "-inf" || inner == "-infinity") {
      value = -HUGE_VAL;
    } else if (inner == "nan") {
      value = NAN;
    } else {
      unsupported(range, fmt::format("`float({})`", text));
    }
    return ir::FloatImm::make(value, fmt::format("float({})", text), range);
  }
  if (ExprPtr value = lower_static_builtin(name, args)) return value;
  if (name == "breakpoint") {
    fail(DiagnosticKind::kUnsupported, range,
         "`breakpoint()` in a kernel is not possible: the kernel runs as a compiled JAX module, "
         "with no Python frame of it to stop in; debug the module's `reference_<kernel>` "
         "(plain jnp) instead");
  }
  if (name == "range" || name == "len" || name == "print" || name == "min" || name == "max" ||
      name == "abs" || name == "int" || name == "float" || name == "bool") {
    unsupported(range, fmt::format("the builtin `{}` in a kernel", name));
  }
  fail(DiagnosticKind::kUnknownFunction, args.call.child_by_field("function").range(),
       fmt::format("calling `{}` from a kernel is not supported; only torch, hl and math "
                   "functions are, and plain functions of this file (inlined)",
                   name));
}

}  // namespace helionc::frontend
