// Matrix products on tiles: `torch.matmul`, `a @ b`, `a.matmul(b)`, `torch.mm`, `torch.bmm`,
// `torch.addmm(acc, a, b)`, `torch.baddbmm(acc, a, b)` and `hl.dot(a, b, acc=, out_dtype=)`.
//
// Every product is one ir kDot (the product in the accumulation dtype: float32, or int32 for
// int8 operands) with the dtype rules of its source around it as casts:
// - torch.matmul/mm/bmm: the operands' dtype (PyTorch requires them to agree);
// - torch.addmm/baddbmm: `beta * acc + alpha * (a @ b)` in acc's dtype (Helion's accumulator
//   form: a float32 acc with bf16 operands is the usual case);
// - hl.dot: float32 (int32 for int8), or `out_dtype`; with `acc`, `acc + product` in acc's
//   dtype (helion/language/matmul_ops.py).
// A permute, transpose or `.T` directly feeding a product is folded into the kDot's axes.
#include <fmt/format.h>

#include <numeric>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::ScalarType;
using ir::Type;
using ir::TypeKind;

namespace {

// `value` with the permutes feeding it removed; `order[i]` is the axis of the result that axis
// `i` of `value` comes from.
ExprPtr strip_permutes(const ExprPtr& value, std::vector<int>& order) {
  const auto* call = value->as<ir::Call>();
  const auto* tuple =
      call && call->op == Intrinsic::kPermute ? call->args[1]->as<ir::TupleExpr>() : nullptr;
  if (tuple == nullptr) {
    order.resize(value->type.dims.size());
    std::iota(order.begin(), order.end(), 0);
    return value;
  }
  std::vector<int> inner;
  ExprPtr base = strip_permutes(call->args[0], inner);
  order.clear();
  for (const ExprPtr& axis : tuple->elements) {
    order.push_back(inner[static_cast<size_t>(axis->as<ir::IntImm>()->value)]);
  }
  return base;
}

bool same_dim(const Dim& a, const Dim& b) {
  if (a.kind != b.kind) return false;
  // Two whole dimensions of different tensors: their sizes are compared when JAX traces.
  if (a.kind == Dim::Kind::kFull || a.kind == Dim::Kind::kUnit) return true;
  return a.tile_dim == b.tile_dim;
}

bool is_number_literal(const ExprPtr& e) {
  return e->kind == ir::ExprKind::kIntImm || e->kind == ir::ExprKind::kFloatImm;
}

double number_value(const ExprPtr& e) {
  if (const auto* i = e->as<ir::IntImm>()) return static_cast<double>(i->value);
  return e->as<ir::FloatImm>()->value;
}

bool is_supported_operand_dtype(ScalarType dtype) {
  return ir::is_floating(dtype) || dtype == ScalarType::kInt8;
}

}  // namespace

ExprPtr KernelLowering::dtype_of(const ExprPtr& value, SourceRange range) {
  if (value->type.dtype) return ir::DtypeImm::make(*value->type.dtype, range);
  if (const auto* load = value->as<ir::Load>()) {
    // `x_ref.dtype` rather than the load again.
    return ir::Call::make(Intrinsic::kDtypeOf, {load->tensor}, Type::dtype_value(), range);
  }
  if (const auto* call = value->as<ir::Call>()) {
    switch (call->op) {
      case Intrinsic::kPermute:
      case Intrinsic::kUnsqueeze:
      case Intrinsic::kSqueeze:
      case Intrinsic::kBroadcastTo:
        return dtype_of(call->args[0], range);
      default:
        break;
    }
  }
  return ir::Call::make(Intrinsic::kDtypeOf, {value}, Type::dtype_value(), range);
}

void KernelLowering::broadcast_batch(ExprPtr& a, ExprPtr& b, SourceRange range) {
  // `hl.dot` and `torch.matmul` broadcast a 2-D operand over the other's batch dimension
  // (x[m, k] @ w[h, k, n] is [h, m, n]). The 2-D side is repeated along the batch, so the
  // product is the batched one; the MXU work is the same as h separate products.
  const int ra = a->type.tile_rank();
  const int rb = b->type.tile_rank();
  if (ra + rb != 5 || (ra != 2 && rb != 2)) return;
  ExprPtr& flat = ra == 2 ? a : b;
  const Dim batch = (ra == 2 ? b : a)->type.dims[0];
  std::vector<Dim> dims = flat->type.dims;
  dims.insert(dims.begin(), batch);
  Type type = Type::tile_tensor(std::move(dims), flat->type.dtype);
  flat = ir::Call::make(Intrinsic::kBroadcastTo, {make_unsqueeze(flat, 0, range)}, std::move(type),
                        range);
}

ExprPtr KernelLowering::make_dot(ExprPtr a, ExprPtr b, std::string_view what, int rank,
                                 bool integers, SourceRange range) {
  for (const ExprPtr* side : {&a, &b}) {
    const Type& type = (*side)->type;
    if (type.kind == TypeKind::kTensor) {
      fail(DiagnosticKind::kTypeMismatch, (*side)->range,
           fmt::format("`{}` multiplies tiles; index the tensor with the loop's tiles (or `:`) "
                       "first",
                       what));
    }
    if (type.kind != TypeKind::kTileTensor) {
      fail(DiagnosticKind::kTypeMismatch, (*side)->range,
           fmt::format("`{}` needs a tile of values, not `{}`", what, ir::type_to_string(type)));
    }
    if (type.tile_rank() < 0) {
      unsupported((*side)->range,
                  fmt::format("`{}` of a tile whose rank is only known at trace time", what));
    }
    if (type.dtype && !is_supported_operand_dtype(*type.dtype)) {
      fail(DiagnosticKind::kUnsupportedDtype, (*side)->range,
           fmt::format("`{}` of `{}` values is not supported: TPUs multiply floating-point and "
                       "int8 matrices",
                       what, ir::dtype_name(*type.dtype)));
    }
    if (type.dtype && *type.dtype == ScalarType::kInt8 && !integers) {
      fail(DiagnosticKind::kUnsupportedDtype, (*side)->range,
           fmt::format("`{}` of int8 values is not supported; `hl.dot` multiplies int8 "
                       "matrices into int32",
                       what));
    }
  }
  if (rank == 0) broadcast_batch(a, b, range);
  const int ra = a->type.tile_rank();
  const int rb = b->type.tile_rank();
  if (ra != rb || (ra != 2 && ra != 3) || (rank != 0 && ra != rank)) {
    const std::string expected = rank == 2   ? "2-D tiles"
                                 : rank == 3 ? "3-D (batched) tiles"
                                             : "two 2-D tiles or two 3-D (batched) tiles";
    fail(DiagnosticKind::kRankMismatch, range,
         fmt::format("`{}` multiplies {}, not tiles of rank {} and {}", what, expected, ra, rb));
  }
  // Matmul view: a is [batch?, M, K], b is [batch?, K, N].
  const Dim& ka = a->type.dims[ra - 1];
  const Dim& kb = b->type.dims[rb - 2];
  const auto name = [&](const Dim& dim) {
    const std::string text = dims_to_string(kernel_, {dim});
    return text.substr(1, text.size() - 2);  // without the brackets
  };
  if (!same_dim(ka, kb)) {
    fail(DiagnosticKind::kShapeMismatch, range,
         fmt::format("`{}` contracts `{}` (the left operand's last dimension) with `{}` (the "
                     "right operand's {} dimension): the contracted dimensions must be the same "
                     "tile, or both whole dimensions",
                     what, name(ka), name(kb), rb == 3 ? "second" : "first"));
  }
  if (ra == 3 && !same_dim(a->type.dims[0], b->type.dims[0])) {
    fail(DiagnosticKind::kShapeMismatch, range,
         fmt::format("`{}` has the batch dimensions `{}` and `{}`: they must be the same tile, or "
                     "both whole dimensions",
                     what, name(a->type.dims[0]), name(b->type.dims[0])));
  }
  std::vector<Dim> dims;
  if (ra == 3) dims.push_back(a->type.dims[0]);
  dims.push_back(a->type.dims[ra - 2]);
  dims.push_back(b->type.dims[rb - 1]);

  // The accumulation dtype: float32 unless both operands are int8.
  std::optional<ScalarType> dtype;
  const auto& da = a->type.dtype;
  const auto& db = b->type.dtype;
  if ((da && ir::is_floating(*da)) || (db && ir::is_floating(*db))) {
    dtype = ScalarType::kFloat32;
  } else if (da && db) {
    dtype = ScalarType::kInt32;
  }

  std::vector<int> oa;
  std::vector<int> ob;
  ExprPtr base_a = strip_permutes(a, oa);
  ExprPtr base_b = strip_permutes(b, ob);
  ExprPtr batch = ir::NoneImm::make(range);
  if (ra == 3) {
    batch = ir::TupleExpr::make({ir::IntImm::make(oa[0], range), ir::IntImm::make(ob[0], range)},
                                Type::shape(2), range);
  }
  return ir::Call::make(Intrinsic::kDot,
                        {base_a, ir::IntImm::make(oa[ra - 1], range), base_b,
                         ir::IntImm::make(ob[rb - 2], range), batch},
                        Type::tile_tensor(std::move(dims), dtype), range);
}

ExprPtr KernelLowering::make_matmul(const ExprPtr& a, const ExprPtr& b, std::string_view what,
                                    int rank, SourceRange range) {
  const auto da = a->type.kind == TypeKind::kTileTensor ? a->type.dtype : std::nullopt;
  const auto db = b->type.kind == TypeKind::kTileTensor ? b->type.dtype : std::nullopt;
  if (da && db && *da != *db) {
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("`{}` needs operands of one dtype, not `{}` and `{}` (as in PyTorch); "
                     "convert one with `.to(...)`, or use `hl.dot`, which promotes",
                     what, ir::dtype_name(*da), ir::dtype_name(*db)));
  }
  ExprPtr dot = make_dot(a, b, what, rank, /*integers=*/false, range);
  // PyTorch's result has the operands' dtype, computed with float32 accumulation.
  if (da && *da == ScalarType::kFloat32) return dot;
  if (db && *db == ScalarType::kFloat32) return dot;
  Type type = dot->type;
  ExprPtr dtype;
  if (da || db) {
    type.dtype = da ? da : db;
    dtype = ir::DtypeImm::make(*type.dtype, range);
  } else {
    type.dtype = std::nullopt;
    dtype = ir::Call::make(Intrinsic::kPromoteTypes, {dtype_of(a, range), dtype_of(b, range)},
                           Type::dtype_value(), range);
  }
  return ir::Call::make(Intrinsic::kCast, {std::move(dot), std::move(dtype)}, std::move(type),
                        range);
}

ExprPtr KernelLowering::lower_product_method(const ExprPtr& receiver, std::string_view method,
                                             const CallArgs& args) {
  if (method != "matmul" && method != "mm" && method != "bmm") return nullptr;
  const std::string shown = fmt::format(".{}()", method);
  check_arity(args, shown, 1, 1, {});
  const int rank = method == "mm" ? 2 : method == "bmm" ? 3 : 0;
  return make_matmul(receiver, lower_expr(args.positional[0]), shown, rank, args.call.range());
}

ExprPtr KernelLowering::lower_product_function(const std::string& name, const CallArgs& args) {
  const SourceRange range = args.call.range();
  const std::string shown(args.call.child_by_field("function").text());
  const bool products = name == "torch.matmul" || name == "torch.mm" || name == "torch.bmm" ||
                        name == "torch.addmm" || name == "torch.baddbmm" ||
                        name == "helion.language.dot";
  if (!products) return nullptr;
  if (!in_device()) {
    unsupported(range, fmt::format("`{}` in host code (outside `hl.tile` loops)", shown));
  }
  if (name == "torch.matmul" || name == "torch.mm" || name == "torch.bmm") {
    const bool out_dtype_allowed = name != "torch.matmul";
    check_arity(args, shown, 2, out_dtype_allowed ? 3 : 2,
                out_dtype_allowed ? std::initializer_list<std::string_view>{"out_dtype"}
                                  : std::initializer_list<std::string_view>{});
    const int rank = name == "torch.mm" ? 2 : name == "torch.bmm" ? 3 : 0;
    if (const SyntaxNode out_dtype = argument(args, 2, "out_dtype")) {
      // PyTorch's `torch.mm/bmm(a, b, out_dtype)`: the float32-accumulated product in that
      // dtype (Helion's attention writes `torch.bmm(q, k, torch.float32)` for bf16 inputs).
      ExprPtr a = lower_expr(args.positional[0]);  // in source order: the leftmost error first
      ExprPtr b = lower_expr(args.positional[1]);
      ExprPtr dot = make_dot(std::move(a), std::move(b), shown, rank, /*integers=*/false, range);
      return make_cast(std::move(dot), lower_dtype_expr(out_dtype), range);
    }
    ExprPtr a = lower_expr(args.positional[0]);  // in source order: the leftmost error first
    ExprPtr b = lower_expr(args.positional[1]);
    return make_matmul(a, b, shown, rank, range);
  }
  if (name == "torch.addmm" || name == "torch.baddbmm") {
    check_arity(args, shown, 3, 3, {"beta", "alpha"});
    ExprPtr acc = lower_expr(args.positional[0]);
    ExprPtr a = lower_expr(args.positional[1]);  // in source order: the leftmost error first
    ExprPtr b = lower_expr(args.positional[2]);
    ExprPtr dot = make_dot(std::move(a), std::move(b), shown, name == "torch.addmm" ? 2 : 3,
                           /*integers=*/false, range);
    if (acc->type.kind != TypeKind::kTileTensor) {
      fail(DiagnosticKind::kTypeMismatch, acc->range,
           fmt::format("the accumulator of `{}` must be a tile of values, not `{}`", shown,
                       ir::type_to_string(acc->type)));
    }
    if (acc->type.dtype && !ir::is_floating(*acc->type.dtype)) {
      fail(DiagnosticKind::kUnsupportedDtype, acc->range,
           fmt::format("the accumulator of `{}` must hold floating-point values, not `{}`", shown,
                       ir::dtype_name(*acc->type.dtype)));
    }
    // The product's dims first: whole axes of two tensors (`q.size(2)`, `v.size(2)`) merge to
    // the product's, and their equality is checked when JAX traces the module.
    const auto merged = unify_dims(dot->type.dims, acc->type.dims, acc->range);
    if (!merged || !dims_agree(*merged, dot->type.dims)) {
      fail(DiagnosticKind::kShapeMismatch, acc->range,
           fmt::format("the accumulator of shape {} does not broadcast to the product's shape {}",
                       dims_to_string(kernel_, acc->type.dims),
                       dims_to_string(kernel_, dot->type.dims)));
    }
    // `beta * acc + alpha * (a @ b)`; only number literals (beta=0 ignores acc, as in PyTorch).
    const auto scale = [&](std::string_view key) -> ExprPtr {
      const SyntaxNode node = args.keyword(key);
      if (!node) return nullptr;
      ExprPtr value = lower_expr(node);
      if (!is_number_literal(value)) {
        unsupported(node.range(), fmt::format("`{}=` other than a number literal", key));
      }
      return value;
    };
    const ExprPtr beta = scale("beta");
    const ExprPtr alpha = scale("alpha");
    ExprPtr product = dot;
    if (alpha && number_value(alpha) != 1.0) {
      product = make_binary(ir::BinaryOp::kMul, alpha, product, range);
    }
    if (beta && number_value(beta) == 0.0) return accumulate(nullptr, product, acc, range);
    ExprPtr addend = acc;
    if (beta && number_value(beta) != 1.0) {
      addend = make_binary(ir::BinaryOp::kMul, beta, addend, range);
    }
    return accumulate(addend, product, acc, range);
  }
  // hl.dot(mat1, mat2, acc=None, out_dtype=None)
  check_arity(args, shown, 2, 4, {"acc", "out_dtype"});
  ExprPtr a = lower_expr(args.positional[0]);
  ExprPtr b = lower_expr(args.positional[1]);
  ExprPtr dot = make_dot(a, b, shown, 0, /*integers=*/true, range);
  const bool int8 = (a->type.dtype && *a->type.dtype == ScalarType::kInt8) ||
                    (b->type.dtype && *b->type.dtype == ScalarType::kInt8);
  if (int8 && dot->type.dtype != ScalarType::kInt32) {
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("`{}` multiplies int8 only by int8 (into int32)", shown));
  }
  ExprPtr product = dot;
  if (const SyntaxNode node = argument(args, 3, "out_dtype"); node && node.type() != "none") {
    ExprPtr out_dtype = lower_dtype_expr(node);
    const auto* imm = out_dtype->as<ir::DtypeImm>();
    if (!imm || imm->dtype != dot->type.dtype) {
      Type type = dot->type;
      type.dtype = imm ? std::optional(imm->dtype) : std::nullopt;
      product = ir::Call::make(Intrinsic::kCast, {dot, out_dtype}, std::move(type), range);
    }
  }
  const SyntaxNode acc_node = argument(args, 2, "acc");
  if (!acc_node || acc_node.type() == "none") return product;
  ExprPtr acc = lower_expr(acc_node);
  if (acc->type.kind != TypeKind::kTileTensor) {
    fail(DiagnosticKind::kTypeMismatch, acc->range,
         fmt::format("`acc` of `{}` must be a tile of values, not `{}`", shown,
                     ir::type_to_string(acc->type)));
  }
  if (const auto& dtype = acc->type.dtype) {
    const bool valid = *dtype == ScalarType::kFloat32 || *dtype == ScalarType::kFloat16 ||
                       *dtype == ScalarType::kInt32;
    if (!valid) {
      fail(DiagnosticKind::kUnsupportedDtype, acc->range,
           fmt::format("`acc` of `{}` must be float32, float16 or int32 (as in Helion), not `{}`",
                       shown, ir::dtype_name(*dtype)));
    }
    if (int8 && *dtype != ScalarType::kInt32) {
      fail(DiagnosticKind::kTypeMismatch, acc->range,
           fmt::format("`{}` of int8 operands needs an int32 `acc`, not `{}`", shown,
                       ir::dtype_name(*dtype)));
    }
  }
  if (!accumulator_fits(acc->type.dims, dot->type.dims, range)) {
    fail(DiagnosticKind::kShapeMismatch, acc->range,
         fmt::format("`acc` of shape {} does not match the product's shape {}",
                     dims_to_string(kernel_, acc->type.dims),
                     dims_to_string(kernel_, dot->type.dims)));
  }
  return accumulate(acc, product, acc, range);
}

bool KernelLowering::accumulator_fits(const std::vector<Dim>& acc, const std::vector<Dim>& product,
                                      SourceRange range) {
  if (acc.size() != product.size()) return false;
  std::vector<SizeAgreement> checks;
  for (size_t i = 0; i < acc.size(); ++i) {
    if (acc[i] == product[i]) continue;
    if (const auto agreement = checked_sizes(acc[i], product[i])) {
      checks.push_back(*agreement);
    } else if (acc[i].kind == Dim::Kind::kFull && product[i].kind == Dim::Kind::kFull) {
      // Axes of different tensors (`acc` sized by `q.size(-1)`, a product by `do.size(1)`):
      // Helion's shapes make them equal; the module checks that they are.
      checks.push_back(SizeAgreement{acc[i], product[i]});
    } else {
      return false;
    }
  }
  for (const SizeAgreement& check : checks) require_size(check, range);
  return true;
}

ExprPtr KernelLowering::accumulate(const ExprPtr& addend, const ExprPtr& product,
                                   const ExprPtr& acc, SourceRange range) {
  ExprPtr sum = addend ? make_binary(ir::BinaryOp::kAdd, addend, product, range) : product;
  const std::optional<ScalarType>& dtype = acc->type.dtype;
  if (dtype && sum->type.dtype == dtype) return sum;
  if (dtype == ScalarType::kFloat32 && addend) {
    // float32 plus a float32 (or int32) product is float32 whatever the operands turn out to be.
    const auto* binary = sum->as<ir::Binary>();
    return ir::Binary::make(binary->op, binary->lhs, binary->rhs,
                            Type::tile_tensor(sum->type.dims, dtype), range);
  }
  return ir::Call::make(Intrinsic::kCast, {sum, dtype_of(acc, range)},
                        Type::tile_tensor(sum->type.dims, dtype), range);
}

}  // namespace helionc::frontend
