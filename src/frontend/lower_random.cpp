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

ExprPtr KernelLowering::lower_random(const std::string& name, const CallArgs& args) {
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
