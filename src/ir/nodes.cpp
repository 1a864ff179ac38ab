#include "ir/nodes.h"

#include <algorithm>

namespace helionc::ir {

std::string_view intrinsic_name(Intrinsic op) {
  switch (op) {
#define HELIONC_OP(Enum, name, arity, ...) \
  case Intrinsic::Enum:                    \
    return name;
#include "ops/operations.def"
#define HELIONC_INTRINSIC(Enum, name, arity, where, basis, flops, transcendentals, divisions) \
  case Intrinsic::Enum:                                                                       \
    return name;
#include "ir/intrinsics.def"
  }
  return "?";
}

int intrinsic_arity(Intrinsic op) {
  switch (op) {
#define HELIONC_OP(Enum, name, arity, ...) \
  case Intrinsic::Enum:                    \
    return arity;
#include "ops/operations.def"
#define HELIONC_INTRINSIC(Enum, name, arity, where, basis, flops, transcendentals, divisions) \
  case Intrinsic::Enum:                                                                       \
    return arity;
#include "ir/intrinsics.def"
  }
  return -1;
}

IntrinsicPlace intrinsic_place(Intrinsic op) {
  switch (op) {
#define HELIONC_OP(Enum, ...) case Intrinsic::Enum:
#include "ops/operations.def"
    return IntrinsicPlace::kBoth;
#define HELIONC_INTRINSIC(Enum, name, arity, where, basis, flops, transcendentals, divisions) \
  case Intrinsic::Enum:                                                                       \
    return IntrinsicPlace::where;
#include "ir/intrinsics.def"
  }
  return IntrinsicPlace::kBoth;
}

IntrinsicCost intrinsic_cost(Intrinsic op) {
  switch (op) {
#define HELIONC_OP(Enum, name, arity, dtype, spellings, jnp, mosaic, helpers, scalar, flops, \
                   transcendentals, divisions, facts)                                        \
  case Intrinsic::Enum:                                                                      \
    return {IntrinsicCost::Basis::kResult, flops, transcendentals, divisions};
#include "ops/operations.def"
#define HELIONC_INTRINSIC(Enum, name, arity, where, basis, flops, transcendentals, divisions) \
  case Intrinsic::Enum:                                                                       \
    return {IntrinsicCost::Basis::basis, flops, transcendentals, divisions};
#include "ir/intrinsics.def"
  }
  return {};
}

int int_literal(const Expr& expr, int otherwise) {
  const auto* imm = expr.as<IntImm>();
  return imm != nullptr ? static_cast<int>(imm->value) : otherwise;
}

bool is_number(const Expr& expr, double value) {
  if (const auto* i = expr.as<IntImm>()) return static_cast<double>(i->value) == value;
  if (const auto* f = expr.as<FloatImm>()) return f->value == value;
  return false;
}

bool reduces_along_axis(Intrinsic op) {
  switch (op) {
    case Intrinsic::kSum:
    case Intrinsic::kMean:
    case Intrinsic::kAmax:
    case Intrinsic::kAmin:
    case Intrinsic::kProd:
    case Intrinsic::kArgmax:
    case Intrinsic::kArgmin:
    case Intrinsic::kSoftmax:
    case Intrinsic::kLogSoftmax:
    case Intrinsic::kDot:  // along the contracted axis of its first operand
      return true;
    default:
      return false;
  }
}

std::string_view unary_op_spelling(UnaryOp op) {
  switch (op) {
    case UnaryOp::kNeg:
      return "-";
    case UnaryOp::kPos:
      return "+";
    case UnaryOp::kInvert:
      return "~";
    case UnaryOp::kNot:
      return "not ";
  }
  return "?";
}

std::string_view binary_op_spelling(BinaryOp op) {
  switch (op) {
    case BinaryOp::kAdd:
      return "+";
    case BinaryOp::kSub:
      return "-";
    case BinaryOp::kMul:
      return "*";
    case BinaryOp::kDiv:
      return "/";
    case BinaryOp::kFloorDiv:
      return "//";
    case BinaryOp::kMod:
      return "%";
    case BinaryOp::kPow:
      return "**";
    case BinaryOp::kBitAnd:
      return "&";
    case BinaryOp::kBitOr:
      return "|";
    case BinaryOp::kBitXor:
      return "^";
    case BinaryOp::kLShift:
      return "<<";
    case BinaryOp::kRShift:
      return ">>";
    case BinaryOp::kAnd:
      return "and";
    case BinaryOp::kOr:
      return "or";
  }
  return "?";
}

std::string_view compare_op_spelling(CompareOp op) {
  switch (op) {
    case CompareOp::kLt:
      return "<";
    case CompareOp::kLe:
      return "<=";
    case CompareOp::kGt:
      return ">";
    case CompareOp::kGe:
      return ">=";
    case CompareOp::kEq:
      return "==";
    case CompareOp::kNe:
      return "!=";
    case CompareOp::kIs:
      return "is";
    case CompareOp::kIsNot:
      return "is not";
  }
  return "?";
}

ExprPtr IntImm::make(int64_t value, SourceRange range) {
  return std::make_shared<IntImm>(value, Type::scalar(TypeKind::kInt), range);
}
ExprPtr FloatImm::make(double value, std::string spelling, SourceRange range) {
  return std::make_shared<FloatImm>(value, std::move(spelling), Type::scalar(TypeKind::kFloat),
                                    range);
}
ExprPtr BoolImm::make(bool value, SourceRange range) {
  return std::make_shared<BoolImm>(value, Type::scalar(TypeKind::kBool), range);
}
ExprPtr NoneImm::make(SourceRange range) {
  return std::make_shared<NoneImm>(ExprKind::kNoneImm, Type::none(), range);
}
ExprPtr StringImm::make(std::string spelling, SourceRange range) {
  return std::make_shared<StringImm>(std::move(spelling), Type::scalar(TypeKind::kString), range);
}
ExprPtr DtypeImm::make(ScalarType dtype, SourceRange range) {
  return std::make_shared<DtypeImm>(dtype, Type::dtype_value(), range);
}
ExprPtr VarRef::make(int binding, Type type, SourceRange range) {
  return std::make_shared<VarRef>(binding, std::move(type), range);
}
ExprPtr Unary::make(UnaryOp op, ExprPtr operand, Type type, SourceRange range) {
  return std::make_shared<Unary>(op, std::move(operand), std::move(type), range);
}
ExprPtr Binary::make(BinaryOp op, ExprPtr lhs, ExprPtr rhs, Type type, SourceRange range) {
  return std::make_shared<Binary>(op, std::move(lhs), std::move(rhs), std::move(type), range);
}
ExprPtr Compare::make(CompareOp op, ExprPtr lhs, ExprPtr rhs, Type type, SourceRange range) {
  return std::make_shared<Compare>(op, std::move(lhs), std::move(rhs), std::move(type), range);
}
ExprPtr Call::make(Intrinsic op, std::vector<ExprPtr> args, Type type, SourceRange range) {
  return std::make_shared<Call>(op, std::move(args), std::move(type), range);
}
ExprPtr Load::make(ExprPtr tensor, Index index, Type type, SourceRange range) {
  return std::make_shared<Load>(std::move(tensor), std::move(index), std::move(type), range);
}
ExprPtr TupleExpr::make(std::vector<ExprPtr> elements, Type type, SourceRange range) {
  return std::make_shared<TupleExpr>(std::move(elements), std::move(type), range);
}
ExprPtr TupleGet::make(ExprPtr tuple, int index, Type type, SourceRange range) {
  return std::make_shared<TupleGet>(std::move(tuple), index, std::move(type), range);
}

std::string_view tile_attr_name(TileAttrKind attr) {
  switch (attr) {
    case TileAttrKind::kIndex:
      return "index";
    case TileAttrKind::kBegin:
      return "begin";
    case TileAttrKind::kEnd:
      return "end";
    case TileAttrKind::kBlockSize:
      return "block_size";
    case TileAttrKind::kId:
      return "id";
    case TileAttrKind::kCount:
      return "count";
  }
  return "?";
}

ExprPtr TileAttr::make(int tile_dim, TileAttrKind attr, Type type, SourceRange range) {
  return std::make_shared<TileAttr>(tile_dim, attr, std::move(type), range);
}

StmtPtr Let::make(int target, ExprPtr value, SourceRange range) {
  return std::make_shared<Let>(std::vector<int>{target}, std::move(value), range, false);
}
StmtPtr Let::make_unpack(std::vector<int> targets, ExprPtr value, SourceRange range) {
  return std::make_shared<Let>(std::move(targets), std::move(value), range, true);
}
StmtPtr Alloc::make(int target, ExprPtr shape, ExprPtr dtype, ExprPtr fill, SourceRange range) {
  return std::make_shared<Alloc>(target, std::move(shape), std::move(dtype), std::move(fill),
                                 range);
}
StmtPtr Store::make(ExprPtr tensor, Index index, ExprPtr value, SourceRange range,
                    bool accumulate) {
  return std::make_shared<Store>(std::move(tensor), std::move(index), std::move(value), range,
                                 accumulate);
}
StmtPtr TileLoop::make(std::vector<int> tile_dims, std::vector<int> loop_vars, Block body,
                       SourceRange range, std::vector<Carry> carried) {
  return std::make_shared<TileLoop>(std::move(tile_dims), std::move(loop_vars), std::move(body),
                                    range, std::move(carried));
}
StmtPtr StaticLoop::make(int var, ExprPtr begin, ExprPtr end, ExprPtr step, Block body,
                         std::vector<TileLoop::Carry> carried, SourceRange range) {
  return std::make_shared<StaticLoop>(var, std::move(begin), std::move(end), std::move(step),
                                      std::move(body), std::move(carried), range);
}
StmtPtr If::make(ExprPtr condition, Block then_body, Block else_body, std::vector<Merge> merges,
                 SourceRange range, bool on_device) {
  return std::make_shared<If>(std::move(condition), std::move(then_body), std::move(else_body),
                              std::move(merges), range, on_device);
}
StmtPtr Assert::make(ExprPtr condition, ExprPtr message, SourceRange range, bool implied) {
  return std::make_shared<Assert>(std::move(condition), std::move(message), range, implied);
}
StmtPtr Return::make(std::vector<ExprPtr> values, SourceRange range, bool tuple) {
  return std::make_shared<Return>(std::move(values), range, tuple);
}

int Kernel::block_value_binding(int tunable) const {
  if (tunable < 0 || static_cast<size_t>(tunable) >= block_value_bindings.size()) return -1;
  return block_value_bindings[static_cast<size_t>(tunable)];
}

bool UserTunable::allows(int64_t value) const {
  switch (kind) {
    case Kind::kPowerOfTwo:
      return value >= low && value <= high && value > 0 && (value & (value - 1)) == 0;
    case Kind::kInteger:
      return value >= low && value <= high;
    case Kind::kEnum:
      return std::find(choices.begin(), choices.end(), value) != choices.end();
    case Kind::kBoolean:
      return value == 0 || value == 1;
  }
  return false;
}

std::string UserTunable::describe_values() const {
  switch (kind) {
    case Kind::kPowerOfTwo:
      return "a power of two from " + std::to_string(low) + " to " + std::to_string(high);
    case Kind::kInteger:
      return "an integer from " + std::to_string(low) + " to " + std::to_string(high);
    case Kind::kEnum: {
      std::string text = "one of ";
      for (size_t i = 0; i < choices.size(); ++i) {
        text += (i == 0 ? "" : ", ") + std::to_string(choices[i]);
      }
      return text;
    }
    case Kind::kBoolean:
      return "true or false";
  }
  return {};
}

std::vector<int64_t> UserTunable::legal_values() const {
  switch (kind) {
    case Kind::kPowerOfTwo: {
      std::vector<int64_t> values;
      for (int64_t v = 1; v > 0 && v <= high; v *= 2) {
        if (v >= low) values.push_back(v);
      }
      return values;
    }
    case Kind::kInteger: {
      std::vector<int64_t> values;
      for (int64_t v = low; v <= high; ++v) values.push_back(v);
      return values;
    }
    case Kind::kEnum:
      return choices;
    case Kind::kBoolean:
      return {0, 1};
  }
  return {};
}

const std::string& call_name(const Kernel& kernel, const Param& param) {
  return param.pack >= 0 ? param.call_name : kernel.bindings[param.binding].name;
}

bool opens_pack(const Kernel& kernel, const Param& param) {
  return param.pack >= 0 && kernel.packs[param.pack].elements.front() == param.binding;
}

Block without_host_lets(const Block& block, const std::function<bool(const Let&)>& dropped) {
  Block kept;
  for (const StmtPtr& stmt : block) {
    if (const auto* let = stmt->as<Let>(); let && dropped(*let)) continue;
    const auto* branch = stmt->as<If>();
    if (branch && !branch->on_device) {
      kept.push_back(If::make(branch->condition, without_host_lets(branch->then_body, dropped),
                              without_host_lets(branch->else_body, dropped), branch->merges,
                              branch->range, false));
      continue;
    }
    kept.push_back(stmt);
  }
  return kept;
}

}  // namespace helionc::ir
