// `hl.rand(shape, seed)` and `hl.randint(shape, low, high, seed)`: Helion's counter-based
// Philox generator, so that a kernel draws the same numbers here as under Helion. Each element
// is Philox4x32-10 of its counter, the element's row-major position in the shape's full
// extents (`offsets=` gives the counters instead), under a 64-bit key from the seed; the first
// output word becomes a float32 in [0, 1] (rand) or an integer in [low, high) (randint), as
// Helion converts it. The seed is a static integer (an argument or a literal); the module
// computes the generator with 32-bit integer arithmetic (templates/helper_philox.py.tmpl),
// which the TPU's VPU runs. Counters are 32-bit: a shape of 2**31 elements or more is refused
// while JAX traces.
#include <algorithm>

#include <fmt/format.h>

#include "frontend/kernel_lowering.h"
#include "frontend/type_rules.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::ScalarType;
using ir::Type;
using ir::TypeKind;

ExprPtr KernelLowering::position_counters(const std::vector<ir::Dim>& dims, SourceRange range) {
  ExprPtr counters;
  ExprPtr stride;  // the product of the later dimensions' extents
  for (size_t d = dims.size(); d-- > 0;) {
    const ir::Dim& dim = dims[d];
    if (dim.kind == ir::Dim::Kind::kUnit) continue;
    ExprPtr index;
    ExprPtr extent;
    if (dim.kind == ir::Dim::Kind::kTile) {
      index = ir::TileAttr::make(dim.tile_dim, ir::TileAttrKind::kIndex,
                                 Type::tile_tensor({dim}, ScalarType::kInt32), range);
      extent = kernel_.tile_dims[dim.tile_dim].extent;
    } else if (dim.kind == ir::Dim::Kind::kFull) {
      extent = dim_size(dim, range);
      index = ir::Call::make(Intrinsic::kArange,
                             {extent, ir::DtypeImm::make(ScalarType::kInt32, range)},
                             Type::tile_tensor({dim}, ScalarType::kInt32), range);
    } else {
      unsupported(range,
                  "random numbers over a dimension other than a tile, a tensor's whole "
                  "axis or 1");
    }
    // [dim] -> [dim, 1, ..., 1]: one trailing unit axis per later dimension.
    for (size_t later = d + 1; later < dims.size(); ++later) {
      index = make_unsqueeze(index, static_cast<int>(index->type.dims.size()), range);
    }
    if (stride) index = make_binary(ir::BinaryOp::kMul, index, stride, range);
    counters = counters ? make_binary(ir::BinaryOp::kAdd, index, counters, range) : index;
    stride = stride ? make_binary(ir::BinaryOp::kMul, stride, extent, range) : extent;
  }
  if (!counters) {
    counters =
        ir::Call::make(Intrinsic::kFull,
                       {ir::IntImm::make(0, range), ir::DtypeImm::make(ScalarType::kInt32, range)},
                       Type::tile_tensor(dims, ScalarType::kInt32), range);
  }
  while (counters->type.dims.size() < dims.size()) counters = make_unsqueeze(counters, 0, range);
  return counters;
}

// `torch.rand_like(t)`, `torch.rand(shape)` and the normal `torch.randn_like`/`torch.randn`
// (Box-Muller of Philox's first two words, as Helion converts them) in device code: Helion draws
// them from a seed it takes from PyTorch's generator at each launch; helionc has no generator
// state, so the k-th such call of a kernel (k = 0, 1, ...) uses the seed k, with hl.rand's counters
// (each element's position in the full extents) and conversion. A launch draws the same numbers
// every time (README "Random numbers"); `hl.rand(..., seed=)` takes a seed from the caller.
ExprPtr KernelLowering::lower_implicit_random(const std::string& name, const CallArgs& args) {
  const bool like = name == "torch.rand_like" || name == "torch.randn_like";
  const bool normal =
      name == "torch.randn_like" || name == "torch.randn" || name == "torch.ops.aten.randn.default";
  if (!like && !normal && name != "torch.rand" && name != "torch.ops.aten.rand.default") {
    return nullptr;
  }
  const SourceRange range = args.call.range();
  const std::string shown(args.call.child_by_field("function").text());
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  std::vector<ir::Dim> dims;
  std::optional<ScalarType> dtype = ScalarType::kFloat32;
  ExprPtr like_value;       // rand_like's tile, whose dtype may be known only at trace time
  ExprPtr explicit_target;  // a `dtype=` known only at trace time
  if (like) {
    check_arity(args, shown, 1, 1,
                {"dtype", "device", "layout", "requires_grad", "memory_format", "pin_memory"});
    const ExprPtr value = lower_expr(args.positional[0]);
    if (value->type.kind != TypeKind::kTileTensor) {
      fail(DiagnosticKind::kTypeMismatch, args.positional[0].range(),
           fmt::format("`{}` takes a tile of values, not `{}`", shown,
                       ir::type_to_string(value->type)));
    }
    dims = value->type.dims;
    dtype = value->type.dtype;
    like_value = value;
  } else {
    check_arity(args, shown, 1, 8,
                {"dtype", "device", "layout", "requires_grad", "generator", "pin_memory", "size"});
    std::vector<SyntaxNode> entries = args.positional;
    if (entries.size() == 1 && (entries[0].type() == "list" || entries[0].type() == "tuple")) {
      entries = entries[0].named_children();
    }
    if (SyntaxNode generator = args.keyword("generator"); generator && generator.type() != "none") {
      unsupported(generator.range(), fmt::format("`generator=` of `{}`", shown));
    }
    dims = creation_dims(entries);
  }
  if (SyntaxNode node = args.keyword("requires_grad"); node && node.text() != "False") {
    unsupported(node.range(), fmt::format("`requires_grad=` of `{}` in a kernel", shown));
  }
  if (SyntaxNode node = args.keyword("dtype"); node && node.type() != "none") {
    const ExprPtr value = lower_dtype_expr(node);
    const auto* imm = value->as<ir::DtypeImm>();
    dtype = imm ? std::optional(imm->dtype) : std::nullopt;
    if (!imm) explicit_target = value;  // `dtype=x.dtype`
  }
  ExprPtr target = explicit_target;  // the dtype to cast the float32 draw to, if not float32
  if (target) {
    // A dtype known when JAX traces (`x.dtype`): the draw is cast to it.
  } else if (!dtype && like_value) {
    target = ir::Call::make(Intrinsic::kDtypeOf, {like_value}, Type::dtype_value(), range);
  } else if (!dtype || !ir::is_floating(*dtype)) {
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("`{}` draws floating-point numbers; its dtype here is not a known "
                     "floating-point type",
                     shown));
  }
  ExprPtr counters = position_counters(dims, range);
  Type type = Type::tile_tensor(dims, ScalarType::kFloat32);
  ExprPtr draw = ir::Call::make(normal ? Intrinsic::kRandn : Intrinsic::kRand,
                                {counters, ir::IntImm::make(implicit_random_calls_++, range)},
                                std::move(type), range);
  if (target) return make_cast(draw, target, range);
  if (*dtype == ScalarType::kFloat32) return draw;
  return make_cast(draw, ir::DtypeImm::make(*dtype, range), range);
}

ExprPtr KernelLowering::lower_random(const std::string& name, const CallArgs& args) {
  if (ExprPtr implicit = lower_implicit_random(name, args)) return implicit;
  const bool randint = name == "helion.language.randint";
  if (!randint && name != "helion.language.rand") return nullptr;
  const SourceRange range = args.call.range();
  const std::string shown(args.call.child_by_field("function").text());
  if (!in_device()) unsupported(range, fmt::format("`{}` in host code", shown));
  const std::vector<std::string_view> names =
      randint ? std::vector<std::string_view>{"shape", "low", "high", "seed", "device"}
              : std::vector<std::string_view>{"shape", "seed", "device", "offsets"};
  check_arity(args, shown, 0, names.size(), {"shape", "low", "high", "seed", "device", "offsets"});
  for (const auto& [keyword, node] : args.keywords) {
    if (std::find(names.begin(), names.end(), keyword) == names.end()) {
      fail(DiagnosticKind::kBadArgument, node.range(),
           fmt::format("`{}` has no argument `{}`", shown, keyword));
    }
  }
  const auto required = [&](size_t position, std::string_view keyword) {
    SyntaxNode node = argument(args, position, keyword);
    if (!node) {
      fail(DiagnosticKind::kBadArgument, range,
           fmt::format("`{}` needs its argument `{}`", shown, keyword));
    }
    return node;
  };
  const SyntaxNode seed_node = required(randint ? 3 : 1, "seed");
  ExprPtr seed = lower_expr(seed_node);
  if (seed->type.kind != TypeKind::kInt) {
    fail(DiagnosticKind::kTypeMismatch, seed_node.range(),
         fmt::format("the seed of `{}` must be a static integer (an `int` argument or a "
                     "literal), not `{}`",
                     shown, ir::type_to_string(seed->type)));
  }

  // The counters: explicit, or each element's position in the full extents of the shape.
  ExprPtr counters;
  if (const SyntaxNode offsets = randint ? SyntaxNode() : argument(args, 3, "offsets");
      offsets && offsets.type() != "none") {
    counters = lower_expr(offsets);
    const auto dtype = counters->type.dtype;
    if (counters->type.kind != TypeKind::kTileTensor || !dtype || !ir::is_integral(*dtype)) {
      fail(DiagnosticKind::kTypeMismatch, offsets.range(),
           fmt::format("`offsets` of `{}` must be a tile of integers", shown));
    }
  } else {
    const SyntaxNode shape = required(0, "shape");
    if (shape.type() != "list" && shape.type() != "tuple") {
      fail(DiagnosticKind::kTypeMismatch, shape.range(),
           fmt::format("`{}` takes a list of tiles as its shape", shown));
    }
    const auto entries = shape.named_children();
    if (entries.empty()) {
      fail(DiagnosticKind::kBadArgument, shape.range(),
           fmt::format("`{}` of an empty shape needs `offsets=`", shown));
    }
    ExprPtr stride;  // the product of the later dimensions' extents
    for (size_t d = entries.size(); d-- > 0;) {
      ExprPtr tile = lower_expr(entries[d]);
      if (tile->type.kind != TypeKind::kTile || tile->type.tile_dims.size() != 1) {
        unsupported(entries[d].range(),
                    fmt::format("a shape entry of `{}` other than a one-dimensional tile", shown));
      }
      const int dim = tile->type.tile_dims[0];
      ExprPtr index = lower_tile_attribute(tile, "index", entries[d].range());
      // [tile] -> [tile, 1, ..., 1]: one trailing unit axis per later entry.
      for (size_t later = d + 1; later < entries.size(); ++later) {
        index =
            make_unsqueeze(index, static_cast<int>(index->type.dims.size()), entries[d].range());
      }
      if (stride) index = make_binary(ir::BinaryOp::kMul, index, stride, entries[d].range());
      counters = counters ? make_binary(ir::BinaryOp::kAdd, index, counters, range) : index;
      const ExprPtr& extent = kernel_.tile_dims[dim].extent;
      stride = stride ? make_binary(ir::BinaryOp::kMul, stride, extent, range) : extent;
    }
  }

  Type type = counters->type;
  if (!randint) {
    type.dtype = ScalarType::kFloat32;
    return ir::Call::make(Intrinsic::kRand, {counters, seed}, std::move(type), range);
  }
  ExprPtr low = lower_expr(required(1, "low"));
  ExprPtr high = lower_expr(required(2, "high"));
  const auto* low_imm = low->as<ir::IntImm>();
  const auto* high_imm = high->as<ir::IntImm>();
  if (low->type.kind != TypeKind::kInt || high->type.kind != TypeKind::kInt) {
    fail(DiagnosticKind::kTypeMismatch, range,
         fmt::format("`low` and `high` of `{}` must be static integers", shown));
  }
  if (low_imm && high_imm && low_imm->value >= high_imm->value) {
    fail(DiagnosticKind::kBadArgument, range,
         fmt::format("`low` ({}) must be less than `high` ({})", low_imm->value, high_imm->value));
  }
  type.dtype = ScalarType::kInt32;
  return ir::Call::make(Intrinsic::kRandint, {counters, seed, low, high}, std::move(type), range);
}

}  // namespace helionc::frontend
