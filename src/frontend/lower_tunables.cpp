// Host ints the config or Helion's helpers give: `hl.register_tunable(name, fragment)` (a
// config key of the kernel's own, helion-subset.md §6), `helion.cdiv`, `helion.next_power_of_2`
// and `hl.constexpr(value)`; and the decorator config keys that name the tunables.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;
using ir::UserTunable;

namespace {

// Helion's own config keys: a tunable may not take one of their names (Helion refuses it too).
constexpr std::array<std::string_view, 8> kReservedKeys = {
    "block_sizes", "pallas_loop_type", "pallas_load_buffer_count",
    "loop_orders", "vmem_limit_bytes", "pallas_pre_broadcast",
    "num_warps",   "num_stages"};

// The fragment class a qualified name stands for ("helion.autotuner.PowerOfTwoFragment" and
// "helion.autotuner.config_fragment.PowerOfTwoFragment" both give "PowerOfTwoFragment").
std::string_view fragment_class(const std::string& name) {
  if (!name.starts_with("helion.autotuner.")) return {};
  const std::string_view last = std::string_view(name).substr(name.rfind('.') + 1);
  return last.ends_with("Fragment") ? last : std::string_view{};
}

}  // namespace

// How a value that is not a trace-time scalar is described in a message.
std::string KernelLowering::known_when(const ExprPtr& value) const {
  if (value->type.is_scalar() && is_device_value(value)) {
    return fmt::format("a value known only while the kernel runs (`{}`)",
                       ir::type_to_string(value->type));
  }
  return fmt::format("`{}`", ir::type_to_string(value->type));
}

// An int constant written in the source (`16`, `-1`); fails otherwise.
int64_t KernelLowering::int_constant(const SyntaxNode& node, std::string_view what) {
  const ExprPtr value = lower_expr(node);
  if (const auto* imm = value->as<ir::IntImm>()) return imm->value;
  if (const auto* neg = value->as<ir::Unary>(); neg && neg->op == ir::UnaryOp::kNeg) {
    if (const auto* imm = neg->operand->as<ir::IntImm>()) return -imm->value;
  }
  fail(DiagnosticKind::kBadArgument, node.range(),
       fmt::format("{} must be an integer constant", what));
}

ExprPtr KernelLowering::lower_register_tunable(const CallArgs& args) {
  const SourceRange range = args.call.range();
  if (in_device())
    unsupported(range, "`hl.register_tunable` in device code (call it before the loops)");
  check_arity(args, "hl.register_tunable", 2, 2, {});
  const std::optional<std::string_view> name = plain_string(args.positional[0]);
  if (!name || name->empty()) {
    fail(DiagnosticKind::kBadArgument, args.positional[0].range(),
         "the tunable's name must be a string literal");
  }
  if (std::find(kReservedKeys.begin(), kReservedKeys.end(), *name) != kReservedKeys.end() ||
      name->starts_with("x-")) {
    fail(DiagnosticKind::kBadArgument, args.positional[0].range(),
         fmt::format("`{}` is a config key of Helion's own; give the tunable another name", *name));
  }
  for (const UserTunable& other : kernel_.user_tunables) {
    if (other.name == *name) {
      fail(DiagnosticKind::kBadArgument, args.positional[0].range(),
           fmt::format("tunable `{}` is registered twice (first at line {})", *name,
                       file_.line_column(other.range.begin).line));
    }
  }
  const SyntaxNode fragment = args.positional[1];
  const std::optional<std::string> callee =
      fragment.type() == "call" ? imports_.qualified_name(fragment.child_by_field("function"))
                                : std::nullopt;
  const std::string_view kind = callee ? fragment_class(*callee) : std::string_view{};
  if (kind.empty()) {
    fail(DiagnosticKind::kBadArgument, fragment.range(),
         "the second argument of `hl.register_tunable` must be a fragment written in the call "
         "(`PowerOfTwoFragment(16, 256)`, `IntegerFragment(1, 8)`, `EnumFragment((1, 2))`, "
         "`BooleanFragment()`)");
  }
  UserTunable tunable;
  tunable.name = std::string(*name);
  tunable.range = range;
  const CallArgs fargs = split_args(fragment);
  const std::string shown(fragment.child_by_field("function").text());
  if (kind == "PowerOfTwoFragment" || kind == "IntegerFragment") {
    const bool pow2 = kind == "PowerOfTwoFragment";
    tunable.kind = pow2 ? UserTunable::Kind::kPowerOfTwo : UserTunable::Kind::kInteger;
    check_arity(fargs, shown, 2, 3, {"default_val"});
    tunable.low = int_constant(fargs.positional[0], "the fragment's low bound");
    tunable.high = int_constant(fargs.positional[1], "the fragment's high bound");
    const SyntaxNode given = argument(fargs, 2, "default_val");
    // Helion clamps the default into the range (BaseIntegerFragment.default).
    const int64_t requested = given ? int_constant(given, "the fragment's default") : tunable.low;
    tunable.default_value = std::clamp(requested, tunable.low, std::max(tunable.low, tunable.high));
    const auto power_of_two = [](int64_t v) { return v > 0 && (v & (v - 1)) == 0; };
    if (tunable.low > tunable.high ||
        (pow2 && !(power_of_two(tunable.low) && power_of_two(tunable.high)))) {
      fail(DiagnosticKind::kBadArgument, fragment.range(),
           pow2 ? "a `PowerOfTwoFragment`'s bounds must be powers of two, low <= high"
                : "an `IntegerFragment`'s low bound must not exceed its high bound");
    }
    if (!tunable.allows(tunable.default_value)) {
      fail(DiagnosticKind::kBadArgument, fragment.range(),
           fmt::format("the default {} is not a power of two", tunable.default_value));
    }
    constexpr int64_t kMaxValues = 4096;  // the search enumerates them
    if (!pow2 && tunable.high - tunable.low >= kMaxValues) {
      unsupported(fragment.range(),
                  fmt::format("an `IntegerFragment` of more than {} values", kMaxValues));
    }
  } else if (kind == "EnumFragment") {
    tunable.kind = UserTunable::Kind::kEnum;
    check_arity(fargs, shown, 1, 1, {});
    const SyntaxNode choices = fargs.positional[0];
    if (choices.type() != "tuple" && choices.type() != "list") {
      fail(DiagnosticKind::kBadArgument, choices.range(),
           "an `EnumFragment`'s choices must be a tuple written in the call");
    }
    for (const SyntaxNode& choice : choices.named_children()) {
      const int64_t value =
          int_constant(choice, "an `EnumFragment`'s choice (helionc supports int choices)");
      if (std::find(tunable.choices.begin(), tunable.choices.end(), value) !=
          tunable.choices.end()) {
        fail(DiagnosticKind::kBadArgument, choice.range(),
             fmt::format("choice {} is given twice", value));
      }
      tunable.choices.push_back(value);
    }
    if (tunable.choices.empty()) {
      fail(DiagnosticKind::kBadArgument, choices.range(), "an `EnumFragment` needs a choice");
    }
    tunable.default_value = tunable.choices.front();  // Helion's default: the first choice
  } else if (kind == "BooleanFragment") {
    tunable.kind = UserTunable::Kind::kBoolean;
    check_arity(fargs, shown, 0, 0, {});
    tunable.default_value = 0;  // Helion's default: False
  } else {
    unsupported(fragment.range(),
                fmt::format("`{}` as a tunable (it is not a single value)", kind));
  }
  const auto index = static_cast<int64_t>(kernel_.user_tunables.size());
  const TypeKind type =
      tunable.kind == UserTunable::Kind::kBoolean ? TypeKind::kBool : TypeKind::kInt;
  kernel_.user_tunables.push_back(std::move(tunable));
  return ir::Call::make(Intrinsic::kTunable, {ir::IntImm::make(index, range)}, Type::scalar(type),
                        range);
}

ExprPtr KernelLowering::lower_host_int_call(const std::string& name, const CallArgs& args) {
  const SourceRange range = args.call.range();
  const std::string shown(args.call.child_by_field("function").text());
  if (name == "helion.language.register_tunable") return lower_register_tunable(args);
  if (name == "helion.language.constexpr") {
    // A value fixed when the kernel is traced: every host scalar is one already.
    check_arity(args, shown, 1, 1, {});
    ExprPtr value = lower_expr(args.positional[0]);
    if (!value->type.is_scalar() || is_device_value(value)) {
      fail(DiagnosticKind::kTypeMismatch, value->range,
           fmt::format("`{}` takes a value known before the kernel runs (a host int, float or "
                       "bool), not {}",
                       shown, known_when(value)));
    }
    return value;
  }
  const bool cdiv = name == "helion.cdiv";
  if (!cdiv && name != "helion.next_power_of_2") return nullptr;
  check_arity(args, shown, cdiv ? 2 : 1, cdiv ? 2 : 1, {});
  std::vector<ExprPtr> values;
  for (const SyntaxNode& arg : args.positional) {
    values.push_back(lower_expr(arg));
    if (values.back()->type.kind != TypeKind::kInt || is_device_value(values.back())) {
      fail(DiagnosticKind::kTypeMismatch, arg.range(),
           fmt::format("`{}` takes ints known before the kernel runs (sizes, constants), not {}",
                       shown, known_when(values.back())));
    }
  }
  if (cdiv) {
    // Helion's definition, `(a + b - 1) // b`, in the IR's own arithmetic.
    ExprPtr sum = make_binary(ir::BinaryOp::kAdd, values[0], values[1], range);
    ExprPtr less = make_binary(ir::BinaryOp::kSub, sum, ir::IntImm::make(1, range), range);
    return make_binary(ir::BinaryOp::kFloorDiv, less, values[1], range);
  }
  return ir::Call::make(Intrinsic::kNextPowerOf2, {values[0]}, Type::scalar(TypeKind::kInt), range);
}

void KernelLowering::check_builtin_tunable_keys() {
  for (ir::BuiltinConfig& config : kernel_.builtin_configs) {
    for (auto it = config.other_keys.begin(); it != config.other_keys.end();) {
      const std::string& key = it->first;
      const std::pair<int64_t, SourceRange>& value = it->second;
      const auto tunable = std::find_if(kernel_.user_tunables.begin(), kernel_.user_tunables.end(),
                                        [&](const UserTunable& t) { return t.name == key; });
      if (tunable == kernel_.user_tunables.end()) {
        diags_.warning(DiagnosticKind::kIgnoredKeyword, value.second,
                       fmt::format("unknown config key `{}` is ignored", key));
        it = config.other_keys.erase(it);
        continue;
      }
      if (!tunable->allows(value.first)) {
        diags_.error(DiagnosticKind::kBadArgument, value.second,
                     fmt::format("tunable `{}` must be {}, not {}", key, tunable->describe_values(),
                                 value.first));
        failed_ = true;
      }
      ++it;
    }
  }
}

}  // namespace helionc::frontend
