// Built-in configs in the decorator: `@helion.kernel(config=helion.Config(block_sizes=[64],
// num_warps=4))` or `configs=[...]`. The keys that apply to Pallas are kept; keys that only mean
// something on GPUs are dropped with a remark under -v (never an error: real kernel files carry
// them), and unknown keys get a warning.
#include <fmt/format.h>

#include <algorithm>
#include <array>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

namespace {

// Helion's config keys that describe GPU code generation (Triton launch and loop options).
constexpr std::array<std::string_view, 22> kGpuOnlyKeys = {"num_warps",
                                                           "num_stages",
                                                           "reduction_loops",
                                                           "indexing",
                                                           "pid_type",
                                                           "l2_groupings",
                                                           "flatten_loops",
                                                           "range_unroll_factors",
                                                           "range_warp_specializes",
                                                           "range_num_stages",
                                                           "range_multi_buffers",
                                                           "range_flattens",
                                                           "static_ranges",
                                                           "load_eviction_policies",
                                                           "num_sm_multiplier",
                                                           "maxnreg",
                                                           "use_default_config",
                                                           "range_unroll_factor",
                                                           "advanced_controls_file",
                                                           "l2_grouping",
                                                           "elements_per_thread",
                                                           "persistent"};

}  // namespace

void KernelLowering::not_a_module_config(const SyntaxNode& name, std::string_view what) {
  fail(DiagnosticKind::kBadArgument, name.range(),
       fmt::format("`{}` must name {} assigned before the kernel at the top level of this "
                   "file or of the function around the kernel (helionc reads names in a config "
                   "there; a parameter, or a name bound in a loop, `if`, `with` or `try`, "
                   "has its value only at run time)",
                   name.text(), what));
}

namespace {

// `return <value>` as the whole body of a function without parameters (after a docstring), or
// null.
SyntaxNode returned_constant(const SyntaxNode& function) {
  if (!function.child_by_field("parameters").named_children().empty()) return {};
  std::vector<SyntaxNode> body = function.child_by_field("body").named_children();
  if (!body.empty() && body.front().type() == "expression_statement" &&
      body.front().named_children().front().type() == "string") {
    body.erase(body.begin());
  }
  if (body.size() != 1 || body.front().type() != "return_statement") return {};
  const std::vector<SyntaxNode> values = body.front().named_children();
  return values.size() == 1 ? values.front() : SyntaxNode{};
}

}  // namespace

SyntaxNode KernelLowering::resolve_config_name(const SyntaxNode& node) {
  if (node.type() == "call" && node.child_by_field("function").type() == "identifier" &&
      node.child_by_field("arguments").named_children().empty()) {
    // `config=td_config()`, a helper of the file that only returns a config: its value.
    if (const auto helper = constants_->helper(node.child_by_field("function").text())) {
      if (const SyntaxNode value = returned_constant(helper->function)) return value;
    }
    return node;
  }
  if (node.type() != "identifier") return node;
  const auto found = constants_->lookup_past_ifs(node.text(), node.range().begin);
  if (!found || !found->value) return node;
  // The decorator's value is the one the module assigns unconditionally: what a run gets
  // when the condition does not hold, and a config (or none) that is right for any run.
  const SourceFile& file = *found->value.range().file;
  const uint32_t line = file.line_column(found->value.range().begin).line;
  const bool none = found->value.type() == "none";
  for (const SyntaxNode& assignment : found->conditional) {
    if (assignment.range().begin < found->value.range().begin) continue;  // overwritten
    diags_.warning(
        DiagnosticKind::kUnevaluatedCondition, assignment.range(),
        fmt::format("helionc cannot evaluate the `if` around this assignment of `{}`; the kernel "
                    "takes the value assigned at line {}{}",
                    node.text(), line,
                    none ? ", `None` (no built-in config: helionc's own default applies)" : ""));
  }
  return resolve_module_name(found->value);
}

ir::BuiltinConfig KernelLowering::lower_builtin_config(const SyntaxNode& call) {
  if (call.type() == "identifier") not_a_module_config(call, "a `helion.Config(...)`");
  // `helion.Config(key=value, ...)`, or a dict of the same keys (Helion takes both).
  std::vector<std::pair<std::string, std::pair<SyntaxNode, SyntaxNode>>> entries;
  if (call.type() == "dictionary") {
    for (const SyntaxNode& pair : call.named_children()) {
      const SyntaxNode key = pair.child_by_field("key");
      // A plain string: quoted, no prefix (`f"..."`), no escapes to decode.
      const std::string_view spelled = key ? key.text() : std::string_view{};
      if (pair.type() != "pair" || key.type() != "string" || spelled.size() < 2 ||
          (spelled.front() != '"' && spelled.front() != '\'') ||
          spelled.find('\\') != std::string_view::npos) {
        fail(DiagnosticKind::kBadArgument, pair.range(),
             "a config dict takes string keys (`{\"block_sizes\": [64]}`)");
      }
      const std::string_view text = key.text();
      entries.push_back(
          {std::string(text.substr(1, text.size() - 2)), {pair, pair.child_by_field("value")}});
    }
  } else {
    const auto name = call.type() == "call"
                          ? imports_.qualified_name(call.child_by_field("function"))
                          : std::nullopt;
    if (name != "helion.Config" && name != "helion.runtime.config.Config") {
      fail(DiagnosticKind::kBadArgument, call.range(),
           "a built-in config must be written `helion.Config(key=value, ...)` or as a dict of "
           "the same keys");
    }
    for (const SyntaxNode& arg : call.child_by_field("arguments").named_children()) {
      if (arg.type() != "keyword_argument") {
        fail(DiagnosticKind::kBadArgument, arg.range(), "`helion.Config` takes keyword arguments");
      }
      entries.push_back(
          {std::string(arg.child_by_field("name").text()), {arg, arg.child_by_field("value")}});
    }
  }
  ir::BuiltinConfig config;
  config.range = call.range();
  const auto integer = [&](const SyntaxNode& node) -> int64_t {
    // `block_sizes=[BLOCK, BLOCK]` with `BLOCK` a local of the function around the kernel.
    if (node.type() == "identifier" && !constants_->lookup(node.text(), node.range().begin)) {
      not_a_module_config(node, "an int constant");
    }
    const ir::ExprPtr value = lower_expr(node);
    const auto* imm = value->as<ir::IntImm>();
    if (!imm) fail(DiagnosticKind::kBadArgument, node.range(), "expected an integer constant");
    return imm->value;
  };
  const auto integers = [&](const SyntaxNode& given) {
    // `block_sizes=BLOCKS`: read where the config stands, as the config itself.
    const SyntaxNode node = resolve_module_name(given);
    if (node.type() == "identifier") not_a_module_config(node, "a list of integers");
    if (node.type() != "list" && node.type() != "tuple") {
      fail(DiagnosticKind::kBadArgument, node.range(), "expected a list of integers");
    }
    std::vector<int64_t> values;
    for (const SyntaxNode& entry : node.named_children()) values.push_back(integer(entry));
    return values;
  };
  for (const auto& [key, nodes] : entries) {
    const auto& [arg, value] = nodes;
    if (key == "block_sizes") {
      config.block_sizes = integers(value);
      for (size_t i = 0; i < config.block_sizes.size(); ++i) {
        if (config.block_sizes[i] <= 0) {
          fail(DiagnosticKind::kBadArgument, resolve_module_name(value).named_children()[i].range(),
               "a block size must be positive");
        }
      }
    } else if (key == "pallas_loop_type" && value.type() == "string") {
      const std::string_view text = value.text();
      config.pallas_loop_type.emplace_back(text.substr(1, text.size() - 2));
      config.pallas_loop_type_for_all = true;
    } else if (key == "pallas_loop_type") {
      if (value.type() != "list" && value.type() != "tuple") {
        fail(DiagnosticKind::kBadArgument, value.range(),
             "expected a loop type string or a list of them");
      }
      for (const SyntaxNode& entry : value.named_children()) {
        if (entry.type() != "string") {
          fail(DiagnosticKind::kBadArgument, entry.range(), "expected a loop type string");
        }
        const std::string_view text = entry.text();
        config.pallas_loop_type.emplace_back(text.substr(1, text.size() - 2));
      }
    } else if (key == "pallas_load_buffer_count") {
      config.pallas_load_buffer_count = integers(value);
    } else if (key == "loop_orders") {
      for (const SyntaxNode& entry : value.named_children())
        config.loop_orders.push_back(integers(entry));
    } else if (key == "vmem_limit_bytes") {
      config.vmem_limit_bytes = integer(value);
    } else if (key == "pallas_pre_broadcast") {
      const ir::ExprPtr flag = lower_expr(value);
      const auto* imm = flag->as<ir::BoolImm>();
      if (!imm) fail(DiagnosticKind::kBadArgument, value.range(), "expected True or False");
      config.pallas_pre_broadcast = imm->value;
    } else if (std::find(kGpuOnlyKeys.begin(), kGpuOnlyKeys.end(), key) != kGpuOnlyKeys.end()) {
      diags_.remark(arg.range(),
                    fmt::format("config key `{}` only applies to GPUs and is ignored", key));
    } else if (value.type() == "integer" || value.type() == "true" || value.type() == "false") {
      // Maybe an `hl.register_tunable` key: known once the body is lowered
      // (check_builtin_tunable_keys warns about the others then).
      config.other_keys[key] = {value.type() == "integer" ? integer(value)
                                : value.type() == "true"  ? 1
                                                          : 0,
                                arg.range()};
    } else {
      diags_.warning(DiagnosticKind::kIgnoredKeyword, arg.range(),
                     fmt::format("unknown config key `{}` is ignored", key));
    }
  }
  return config;
}

}  // namespace helionc::frontend
