// Scans and reductions with a combine function: `hl.associative_scan(fn, x, dim, reverse=)`,
// `torch._higher_order_ops.associative_scan(fn, xs, dim, reverse=)`, `hl.reduce(fn, x, dim,
// other=, keep_dims=)`, and the scans with a built-in combine, `torch.cumsum`/`torch.cumprod`
// and `hl.cumsum`/`hl.cumprod` (`reverse=`).
//
// The combine function is a module-level `def` (its decorator, `@helion.kernel` included, is
// ignored, as Helion does) or a lambda. Its body is lowered once, its parameters standing for
// hidden device bindings (ir kScan/kCombineReduce's `params`), into one result per input; the
// backends print it as a Python lambda. A tuple of inputs takes either two tuple parameters
// (`fn(left, right)`, unpacked in the body) or one parameter per element and side
// (`fn(lv, li, rv, ri)`). Helion scans and reduces within each block; helionc only accepts a
// dimension the block holds whole (`x[tile, :]`), where that is the whole axis and no element
// is padding, so `other=` (Helion's value for masked elements) changes nothing.
#include <fmt/format.h>

#include "frontend/kernel_lowering.h"
#include "frontend/type_rules.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {

// Whether two values have one shape: the same dimensions, where whole axes of two tensors
// count as equal (JAX checks them when it traces the module, as for broadcasting).
bool same_shape(const std::vector<Dim>& a, const std::vector<Dim>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    const bool whole = a[i].kind == Dim::Kind::kFull && b[i].kind == Dim::Kind::kFull;
    if (!whole && !dims_agree({a[i]}, {b[i]})) return false;
  }
  return true;
}

bool is_helion_name(const std::string& name, std::string_view fn) {
  return name == fmt::format("helion.language.{}", fn);
}

// The module-level `def name(...)` (decorated or not), or a null node.
SyntaxNode module_function(const SyntaxNode& anywhere, std::string_view name) {
  SyntaxNode module = anywhere;
  while (module.parent()) module = module.parent();
  for (SyntaxNode stmt : module.named_children()) {
    if (stmt.type() == "decorated_definition") stmt = stmt.child_by_field("definition");
    if (stmt && stmt.type() == "function_definition" &&
        stmt.child_by_field("name").text() == name) {
      return stmt;
    }
  }
  return {};
}

// The names of a def's or lambda's parameters; null when one is not a plain name (a default,
// `*args`): the caller refuses those.
std::optional<std::vector<SyntaxNode>> parameter_names(const SyntaxNode& function) {
  std::vector<SyntaxNode> names;
  const SyntaxNode params = function.child_by_field("parameters");
  if (!params) return names;
  for (const SyntaxNode& param : params.named_children()) {
    if (param.type() == "identifier") {
      names.push_back(param);
    } else if (param.type() == "typed_parameter" && !param.named_children().empty() &&
               param.named_children()[0].type() == "identifier") {
      names.push_back(param.named_children()[0]);
    } else {
      return std::nullopt;
    }
  }
  return names;
}

}  // namespace

KernelLowering::CombineFn KernelLowering::lower_combine(const SyntaxNode& fn_node,
                                                        const std::vector<ExprPtr>& inputs,
                                                        std::string_view shown) {
  SyntaxNode function = fn_node;
  std::string fn_name = "lambda";
  if (fn_node.type() == "identifier") {
    fn_name = std::string(fn_node.text());
    function = module_function(fn_node, fn_name);
    if (!function) {
      fail(DiagnosticKind::kUndefinedName, fn_node.range(),
           fmt::format("undefined combine function `{}`: `{}` takes a function defined at the "
                       "module's top level (by name) or a lambda",
                       fn_name, shown));
    }
  } else if (fn_node.type() != "lambda") {
    unsupported(fn_node.range(),
                fmt::format("a combine function of `{}` other than a module-level function's "
                            "name or a lambda",
                            shown));
  }
  const auto names = parameter_names(function);
  if (!names) {
    unsupported(
        function.range(),
        fmt::format("a parameter of the combine function `{}` other than a plain name", fn_name));
  }
  const size_t n = inputs.size();
  if (names->size() != 2 && names->size() != 2 * n) {
    fail(DiagnosticKind::kWrongArity, function.range(),
         fmt::format("the combine function `{}` takes {} parameter{}; `{}` of {} value{} calls "
                     "it with 2{}",
                     fn_name, names->size(), names->size() == 1 ? "" : "s", shown, n,
                     n == 1 ? "" : "s", n == 1 ? "" : fmt::format(" (two tuples) or {}", 2 * n)));
  }
  // Hidden device bindings for the left then the right elements.
  CombineFn combine;
  for (int side = 0; side < 2; ++side) {
    for (size_t i = 0; i < n; ++i) {
      const SyntaxNode& name = names->size() == 2 * n ? (*names)[side * n + i] : (*names)[side];
      const std::string param =
          names->size() == 2 * n ? std::string(name.text()) : fmt::format("{}_{}", name.text(), i);
      const int id =
          bind_hidden(param, inputs[i]->type, ir::Binding::Origin::kDevice, name.range());
      combine.params.push_back(ref(id, name.range()));
    }
  }
  LambdaFrame frame{fn_name, fn_node.range(), {}};
  if (names->size() == 2 * n) {
    for (size_t i = 0; i < 2 * n; ++i) {
      frame.arguments.emplace(std::string((*names)[i].text()), combine.params[i]);
    }
  } else {
    for (int side = 0; side < 2; ++side) {
      std::vector<ExprPtr> side_params(combine.params.begin() + side * static_cast<long>(n),
                                       combine.params.begin() + (side + 1) * static_cast<long>(n));
      ExprPtr value = side_params[0];
      if (n > 1) {
        std::vector<Type> types;
        for (const ExprPtr& p : side_params) types.push_back(p->type);
        value =
            ir::TupleExpr::make(side_params, Type::tuple(std::move(types)), (*names)[side].range());
      }
      frame.arguments.emplace(std::string((*names)[side].text()), value);
    }
  }
  lambda_frames_.push_back(std::move(frame));
  struct Pop {
    std::vector<LambdaFrame>& frames;
    ~Pop() { frames.pop_back(); }
  } pop{lambda_frames_};

  ExprPtr result;
  if (function.type() == "lambda") {
    result = lower_expr(function.child_by_field("body"));
  } else {
    for (const SyntaxNode& stmt : function.child_by_field("body").named_children()) {
      if (result) {
        unsupported(
            stmt.range(),
            fmt::format("a statement after `return` in the combine function `{}`", fn_name));
      }
      if (stmt.type() == "return_statement" && !stmt.named_children().empty()) {
        result = lower_expr(stmt.named_children()[0]);
        continue;
      }
      const SyntaxNode inner =
          stmt.type() == "expression_statement" && stmt.named_children().size() == 1
              ? stmt.named_children()[0]
              : SyntaxNode();
      if (inner && (inner.type() == "string" || inner.type() == "concatenated_string")) continue;
      if (inner && inner.type() == "assignment" && !inner.child_by_field("type")) {
        const SyntaxNode target = inner.child_by_field("left");
        const ExprPtr value = lower_expr(inner.child_by_field("right"));
        auto& arguments = lambda_frames_.back().arguments;
        if (target.type() == "identifier") {
          arguments.insert_or_assign(std::string(target.text()), value);
          continue;
        }
        if (target.type() == "pattern_list" || target.type() == "tuple_pattern") {
          const auto targets = target.named_children();
          const auto* tuple = value->as<ir::TupleExpr>();
          if (tuple && tuple->elements.size() == targets.size()) {
            bool names_only = true;
            for (const SyntaxNode& t : targets) names_only &= t.type() == "identifier";
            if (names_only) {
              for (size_t i = 0; i < targets.size(); ++i) {
                arguments.insert_or_assign(std::string(targets[i].text()), tuple->elements[i]);
              }
              continue;
            }
          }
        }
      }
      unsupported(stmt.range(),
                  fmt::format("in the combine function `{}`, a statement other than `name = "
                              "value`, `a, b = pair` or `return`",
                              fn_name));
    }
    if (!result) {
      fail(DiagnosticKind::kBadArgument, function.range(),
           fmt::format("the combine function `{}` does not return a value", fn_name));
    }
  }
  std::vector<ExprPtr> results{result};
  if (const auto* tuple = result->as<ir::TupleExpr>()) results = tuple->elements;
  if (results.size() != n) {
    fail(DiagnosticKind::kTypeMismatch, result->range,
         fmt::format("the combine function `{}` returns {} value{} for {} input{}", fn_name,
                     results.size(), results.size() == 1 ? "" : "s", n, n == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < n; ++i) {
    const Type& type = results[i]->type;
    const bool fits =
        (type.kind == TypeKind::kTileTensor && same_shape(type.dims, inputs[i]->type.dims)) ||
        type.is_scalar();
    if (!fits) {
      fail(DiagnosticKind::kTypeMismatch, results[i]->range,
           fmt::format("the combine function `{}` must return values shaped like its inputs, "
                       "not `{}`",
                       fn_name, ir::type_to_string(type)));
    }
  }
  combine.results = std::move(results);
  return combine;
}

// The inputs of a scan or reduction: one tile, or a tuple of tiles of the same shape.
std::vector<ExprPtr> KernelLowering::combine_inputs(const SyntaxNode& node, std::string_view shown,
                                                    bool& tuple_input) {
  ExprPtr value = lower_expr(node);
  std::vector<ExprPtr> inputs{value};
  tuple_input = value->type.kind == TypeKind::kTuple;
  if (tuple_input) inputs = sequence_elements(value, node.range());
  if (inputs.empty()) {
    fail(DiagnosticKind::kBadArgument, node.range(), fmt::format("`{}` of no values", shown));
  }
  for (const ExprPtr& input : inputs) {
    if (input->type.kind != TypeKind::kTileTensor) {
      fail(DiagnosticKind::kTypeMismatch, node.range(),
           fmt::format("`{}` takes a tile of values or a tuple of them, not `{}`", shown,
                       ir::type_to_string(input->type)));
    }
    if (!same_shape(input->type.dims, inputs[0]->type.dims)) {
      fail(DiagnosticKind::kTypeMismatch, node.range(),
           fmt::format("the values of `{}` must have one shape (expand them first)", shown));
    }
  }
  return inputs;
}

int KernelLowering::combine_axis(const SyntaxNode& dim, const ExprPtr& input,
                                 std::string_view shown, SourceRange range) {
  if (!dim) fail(DiagnosticKind::kWrongArity, range, fmt::format("`{}` needs `dim`", shown));
  const int axis = dim_argument(input->type.tile_rank(), dim);
  const Dim& along = input->type.dims[axis];
  if (along.kind == Dim::Kind::kTile || along.kind == Dim::Kind::kVariadic) {
    fail(DiagnosticKind::kUnsupported, dim.range(),
         fmt::format("`{}` along `{}`, a dimension the config splits into blocks, is not "
                     "supported yet: Helion combines within each block, so the result would "
                     "depend on the config; combine along a dimension the block holds whole "
                     "(`x[tile, :]`)",
                     shown,
                     along.kind == Dim::Kind::kTile ? kernel_.tile_dims[along.tile_dim].name
                                                    : std::string("a tile of trace-time rank")));
  }
  return axis;
}

ExprPtr KernelLowering::lower_scan_call(const std::string& name, const CallArgs& args) {
  const bool hops = name == "torch._higher_order_ops.associative_scan";
  const bool scan = hops || is_helion_name(name, "associative_scan");
  const bool reduce = is_helion_name(name, "reduce");
  const bool cumsum = name == "torch.cumsum" || is_helion_name(name, "cumsum");
  const bool cumprod = name == "torch.cumprod" || is_helion_name(name, "cumprod");
  if (!scan && !reduce && !cumsum && !cumprod) return nullptr;
  const SourceRange range = args.call.range();
  const std::string shown(args.call.child_by_field("function").text());
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  const bool torch_cum = name.rfind("torch.cum", 0) == 0;

  bool tuple_input = false;
  std::vector<ExprPtr> inputs;
  CombineFn combine;
  int axis = 0;
  bool flag = false;  // reverse (scans) or keep_dims (hl.reduce)
  const SourceRange flag_range = range;
  if (scan || reduce) {
    if (hops) {
      check_arity(args, shown, 2, 4, {"combine_fn", "xs", "dim", "reverse", "combine_mode"});
    } else if (scan) {
      check_arity(args, shown, 2, 4, {"combine_fn", "input_tensor", "dim", "reverse"});
    } else {
      check_arity(args, shown, 2, 5, {"combine_fn", "input_tensor", "dim", "other", "keep_dims"});
    }
    const SyntaxNode fn = argument(args, 0, "combine_fn");
    const SyntaxNode input = argument(args, 1, hops ? "xs" : "input_tensor");
    if (!fn || !input) {
      fail(DiagnosticKind::kWrongArity, range,
           fmt::format("`{}` needs a combine function and its input", shown));
    }
    if (hops) {
      if (SyntaxNode mode = argument(args, 4, "combine_mode");
          mode && plain_string(mode) != "pointwise") {
        unsupported(mode.range(), "a `combine_mode` other than \"pointwise\"");
      }
    }
    inputs = combine_inputs(input, shown, tuple_input);
    axis = combine_axis(argument(args, 2, "dim"), inputs[0], shown, range);
    flag = bool_argument(
        argument(args, reduce ? 4 : 3, reduce ? "keep_dims" : "reverse"),
        reduce ? "`keep_dims` must be True or False" : "`reverse` must be True or False");
    if (reduce) {
      // `other` fills masked elements; a whole-axis block has none, but it must be a value.
      if (SyntaxNode other = argument(args, 3, "other")) {
        const ExprPtr value = lower_expr(other);
        bool numbers = value->type.is_scalar();
        if (const auto* tuple = value->as<ir::TupleExpr>()) {
          numbers = tuple->elements.size() == inputs.size();
          for (const ExprPtr& e : tuple->elements) {
            numbers &= e->type.is_scalar();
          }
        }
        if (!numbers) {
          fail(DiagnosticKind::kTypeMismatch, other.range(),
               fmt::format("`other` of `{}` must be a number, or a tuple of one per input", shown));
        }
      }
    }
    combine = lower_combine(fn, inputs, shown);
  } else {
    if (torch_cum) {
      check_arity(args, shown, 1, 2, {"input", "dim", "dtype"});
    } else {
      check_arity(args, shown, 1, 3, {"input_tensor", "dim", "reverse"});
    }
    const SyntaxNode input = argument(args, 0, torch_cum ? "input" : "input_tensor");
    if (!input)
      fail(DiagnosticKind::kWrongArity, range, fmt::format("`{}` needs its input", shown));
    ExprPtr value = lower_expr(input);
    if (value->type.kind != TypeKind::kTileTensor) {
      fail(DiagnosticKind::kTypeMismatch, input.range(),
           fmt::format("`{}` takes a tile of values, not `{}`", shown,
                       ir::type_to_string(value->type)));
    }
    if (SyntaxNode dtype = args.keyword("dtype"); dtype && dtype.type() != "none") {
      value = make_cast(value, lower_dtype_expr(dtype), range);
    } else if (value->type.dtype && !ir::is_floating(*value->type.dtype)) {
      // PyTorch's int64 result, narrowed to int32 as for `sum` (TPUs have no 64-bit types).
      value = make_cast(value, ir::DtypeImm::make(ir::ScalarType::kInt32, range), range);
    }
    inputs = {value};
    axis = combine_axis(argument(args, 1, "dim"), value, shown, range);
    if (!torch_cum) {
      flag = bool_argument(argument(args, 2, "reverse"), "`reverse` must be True or False");
    }
    // The built-in combine: hidden parameters and one add or multiply.
    for (const char* side : {"left", "right"}) {
      const int id = bind_hidden(side, value->type, ir::Binding::Origin::kDevice, range);
      combine.params.push_back(ref(id, range));
    }
    combine.results = {make_binary(cumsum ? ir::BinaryOp::kAdd : ir::BinaryOp::kMul,
                                   combine.params[0], combine.params[1], range)};
  }

  std::vector<ExprPtr> operands = inputs;
  std::vector<Type> input_types;
  std::vector<Type> result_types;
  for (const ExprPtr& input : inputs) {
    input_types.push_back(input->type);
    Type type = input->type;
    if (reduce) {
      std::vector<Dim> dims = type.dims;
      if (flag) {
        dims[axis] = Dim::unit();
      } else {
        dims.erase(dims.begin() + axis);
      }
      type = Type::tile_tensor(std::move(dims), type.dtype);
    }
    result_types.push_back(std::move(type));
  }
  std::vector<Type> param_types;
  for (const ExprPtr& p : combine.params) param_types.push_back(p->type);
  std::vector<Type> body_types;
  for (const ExprPtr& r : combine.results) body_types.push_back(r->type);
  ExprPtr call = ir::Call::make(
      reduce ? Intrinsic::kCombineReduce : Intrinsic::kScan,
      {ir::TupleExpr::make(std::move(operands), Type::tuple(std::move(input_types)), range),
       ir::IntImm::make(axis, range), ir::BoolImm::make(flag, flag_range),
       ir::TupleExpr::make(combine.params, Type::tuple(std::move(param_types)), range),
       ir::TupleExpr::make(combine.results, Type::tuple(std::move(body_types)), range)},
      Type::tuple(result_types), range);
  if (tuple_input) return call;
  return ir::TupleGet::make(call, 0, result_types[0], range);
}

}  // namespace helionc::frontend
