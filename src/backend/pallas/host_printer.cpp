#include "backend/pallas/host_printer.h"

#include <algorithm>

#include <fmt/format.h>

#include "backend/pallas/host_state.h"
#include "backend/pallas/launch_printer.h"
#include "backend/pallas/loop_types.h"
#include "backend/pallas/pack_params.h"
#include "backend/pallas/public_docstring.h"
#include "ir/visitor.h"
#include "passes/legal_block.h"
#include "support/quote.h"

namespace helionc::backend::pallas {

namespace {

bool mentions(const ir::StmtPtr& stmt, int binding) {
  bool found = false;
  ir::for_each_expr(ir::Block{stmt}, [&](const ir::Expr& e) {
    if (const auto* ref = e.as<ir::VarRef>()) found |= ref->binding == binding;
  });
  return found;
}

class HostPrinter {
 public:
  HostPrinter(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
              const passes::KernelPlan& plan, const passes::ShapeFacts& facts,
              const std::vector<LaunchNames>& names, const autotune::ConfigFile* config)
      : out_(out),
        context_(context),
        kernel_(kernel),
        plan_(plan),
        names_(names),
        host_(context, kernel, facts),
        config_file_(config),
        tuned_entries_(config != nullptr && !config->configs.empty()) {}

  bool print() {
    std::vector<std::string> params;        // as the signature spells them: hints and defaults
    std::vector<std::string> shown_params;  // the same without hints, for messages
    std::vector<std::string> args;          // the same names, as a call passes them on
    std::vector<bool> takes_arrays;         // per signature parameter: arrays, or a pack of them
    std::vector<std::string> tensors;
    const auto name_of = [&](int binding) { return binding_name(kernel_, binding); };
    for (const ir::Param& param : kernel_.params) {
      const bool tensor = kernel_.bindings[param.binding].type.kind == ir::TypeKind::kTensor;
      if (tensor) tensors.push_back(name_of(param.binding));
      std::optional<std::string> text = signature_name(kernel_, param, name_of);
      if (!text) continue;  // an element of a pack, after its first
      args.push_back(*text);
      takes_arrays.push_back(tensor);
      std::string shown = *text;  // as a message shows it: no hint
      *text += type_hint(param);
      if (param.default_value) {
        const std::string value = host_.text(param.default_value);
        *text += (text->find(':') == std::string::npos ? "=" : " = ") + value;
        shown += "=" + value;
      }
      params.push_back(std::move(*text));
      shown_params.push_back(std::move(shown));
    }
    for (std::vector<std::string>* list : {&params, &shown_params}) {
      list->emplace_back("*");
      list->emplace_back("interpret=None");
    }
    const std::string signature = fmt::format("{}", fmt::join(params, ", "));
    call_signature_ = fmt::format("{}({})", kernel_.name, fmt::join(shown_params, ", "));
    std::string function = kernel_.name;
    // The backward pass is the reference's: a module printed without references (the
    // search's candidates) has none to differentiate.
    const bool differentiable =
        context_.options.autodiff && !context_.options.references.empty() &&
        std::find(takes_arrays.begin(), takes_arrays.end(), true) != takes_arrays.end();
    if (differentiable) {
      function = fmt::format("_{}_forward", kernel_.name);
      print_differentiable(signature, args, takes_arrays, function);
    }
    if (!differentiable) print_checked_call();
    auto body = out_.block(fmt::format("def {}({}):", function, signature));
    if (differentiable) {
      out_.line(fmt::format("\"\"\"`{}` without its custom_vjp: the Pallas kernels alone.\"\"\"",
                            kernel_.name));
    } else {
      for (const std::string& line :
           public_docstring(context_, kernel_, host_.facts, config_file_, false)) {
        out_.line(line);
      }
    }
    if (plan_.launches.empty()) {
      // The reader of a module that calls no pallas_call should not look for one
      // (-Wmissing-device-loop).
      out_.line("# No hl.tile or hl.grid loop (Helion refuses such a kernel): host code only, no");
      out_.line("# pallas_call, so `interpret` has nothing to choose.");
    }
    for (const std::string& line : unpack_packs(kernel_, name_of)) out_.line(line);
    check_arrays();
    check_statics();
    if (kernel_reads_config(kernel_, plan_)) {
      // Chosen by the arguments as passed, before any host code rebinds them (also without
      // tunable block sizes: the inner loops' strategies are config entries).
      config_ = host_.local("config");
      if (tuned_entries_) {
        context_.imports.helpers.insert("select_config");
        std::vector<std::string> args = {config_table_name(kernel_), config_default_name(kernel_)};
        args.insert(args.end(), tensors.begin(), tensors.end());
        out_.line(fmt::format("{} = {}", config_, py_call("_select_config", args).text));
      } else {
        out_.line(fmt::format("{} = {}", config_, config_default_name(kernel_)));
      }
    }
    block(kernel_.body, 0);
    return host_.ok();
  }

 private:
  // The public function of a kernel that takes arrays: a `jax.custom_vjp` (the module's
  // `_differentiable`) whose forward pass is `forward`, the Pallas kernels, and whose backward
  // pass is `jax.vjp` of `reference_<kernel>` (docs/guide/module.md, "Differentiation").
  void print_differentiable(const std::string& signature, const std::vector<std::string>& args,
                            const std::vector<bool>& takes_arrays, const std::string& forward) {
    context_.imports.helpers.insert("differentiable");
    print_checked_call();
    {
      auto body = out_.block(fmt::format("def {}({}):", kernel_.name, signature));
      for (const std::string& line :
           public_docstring(context_, kernel_, host_.facts, config_file_, true)) {
        out_.line(line);
      }
      std::vector<std::string> flags;
      for (bool takes : takes_arrays) flags.emplace_back(takes ? "True" : "False");
      const auto tuple = [](const std::vector<std::string>& items) {
        const std::string joined = fmt::format("{}", fmt::join(items, ", "));
        return items.size() == 1 ? fmt::format("({},)", joined) : fmt::format("({})", joined);
      };
      out_.line(fmt::format(
          "return {}", py_call("_differentiable",
                               std::vector<std::string>{double_quoted(kernel_.name), forward,
                                                        "reference_" + kernel_.name, tuple(args),
                                                        tuple(flags), "interpret"})
                           .text));
    }
    out_.blank();
    out_.blank();
  }

  // `@_checked_call(...)` before the public function: arguments its signature cannot take are a
  // TypeError naming the kernel's parameters and its source line.
  void print_checked_call() {
    context_.imports.helpers.insert("check_args");
    out_.line(fmt::format("@_checked_call({}, {})",
                          double_quoted(context_.where(kernel_.name_range)),
                          double_quoted(call_signature_)));
  }

  // `x = _array_argument(...)` for each array parameter (or element of a pack): a JAX array
  // from here on (numpy's float64 becomes float32, as in any jnp function), of the rank the
  // kernel reads it with where it fixes one, and of no 64-bit dtype; otherwise an error naming
  // the parameter and the line that reads it so.
  void check_arrays() {
    for (const ir::Param& param : kernel_.params) {
      const ir::Binding& binding = kernel_.bindings[static_cast<size_t>(param.binding)];
      if (binding.type.kind != ir::TypeKind::kTensor) continue;
      context_.imports.helpers.insert("check_args");
      const std::string name = binding_name(kernel_, param.binding);
      const std::string shown = param.pack >= 0 ? ir::call_name(kernel_, param) : binding.name;
      const SourceRange& where =
          binding.rank_evidence.valid() ? binding.rank_evidence : binding.range;
      const std::string rank =
          binding.type.rank_known() ? std::to_string(binding.type.rank) : "None";
      const std::string check = fmt::format(
          "{} = {}", name,
          py_call("_array_argument", {double_quoted(kernel_.name), double_quoted(shown), name, rank,
                                      double_quoted(context_.where(where)), "interpret"})
              .text);
      if (binding.type.optional) {
        auto present = out_.block(fmt::format("if {} is not None:", name));
        out_.line(check);
      } else {
        out_.line(check);
      }
    }
  }

  // `_check_static(...)` for each number parameter: the kernel uses it as a Python value (a
  // constant of the kernel body, a size), so a traced one (`jax.jit` without static_argnames)
  // is a TypeError naming it, rather than Pallas's "captures constants" from inside the launch.
  void check_statics() {
    for (const ir::Param& param : kernel_.params) {
      const ir::Binding& binding = kernel_.bindings[static_cast<size_t>(param.binding)];
      const ir::TypeKind kind = binding.type.kind;
      if (param.pack >= 0 || (kind != ir::TypeKind::kInt && kind != ir::TypeKind::kFloat &&
                              kind != ir::TypeKind::kBool)) {
        continue;
      }
      context_.imports.helpers.insert("check_args");
      out_.line(
          py_call("_check_static",
                  std::vector<std::string>{double_quoted(kernel_.name), double_quoted(binding.name),
                                           binding_name(kernel_, param.binding),
                                           double_quoted(context_.where(binding.range))})
              .text);
    }
  }

  // `: jax.Array` for an array parameter (a string for one that may be None: `X | None` is no
  // expression before Python 3.10); nothing for the others, whose types the call decides.
  std::string type_hint(const ir::Param& param) const {
    if (param.pack >= 0) return "";
    const ir::Type& type = kernel_.bindings[static_cast<size_t>(param.binding)].type;
    if (type.kind != ir::TypeKind::kTensor) return "";
    return type.optional ? ": \"jax.Array | None\"" : ": jax.Array";
  }

  // `top` is the position of `stmts` (or of the If holding them) among the top-level statements.
  void block(const ir::Block& stmts, size_t top) {
    const bool top_level = &stmts == &kernel_.body;
    for (size_t i = 0; i < stmts.size(); ++i) {
      statement(stmts, i, top_level ? i : top);
    }
  }

  void statement(const ir::Block& stmts, size_t i, size_t top) {
    const ir::Stmt& stmt = *stmts[i];
    switch (stmt.kind) {
      case ir::StmtKind::kLet: {
        const auto& let = *stmt.as<ir::Let>();
        if (declared_view(let)) return;
        give_values(let.value, stmt);
        if (const auto* call = let.value->as<ir::Call>();
            call && call->op == ir::Intrinsic::kBlockValue) {
          line(fmt::format("{} = {}", let_targets(kernel_, let), block_value(*call)), stmt);
          return;
        }
        if (let.targets.empty()) {  // a statement for its effect (`print`)
          line(host_.text(let.value), stmt);
          return;
        }
        line(fmt::format("{} = {}", let_targets(kernel_, let), host_.text(let.value)), stmt);
        return;
      }
      case ir::StmtKind::kAlloc:
        alloc(*stmt.as<ir::Alloc>(), stmts, i);
        return;
      case ir::StmtKind::kTileLoop: {
        const int launch = plan_.launch_of.at(&stmt);
        check_loop_shapes(plan_.launches[launch], stmt);
        const std::vector<std::string> restore =
            broadcast_unit_axes(plan_.launches[launch], stmts, i, top);
        print_launch(out_, host_, plan_.launches[launch], names_[launch], top, config_,
                     plan_.launches.size());
        for (const std::string& text : restore) out_.line(text);
        return;
      }
      case ir::StmtKind::kIf: {
        const auto& branch = *stmt.as<ir::If>();
        // An array stays declared-only after the `if` when neither branch gave it values.
        const std::set<int> before = host_.declared;
        {
          auto then_block = out_.block(
              context_.with_where(fmt::format("if {}:", host_.text(branch.condition)), stmt.range));
          block(branch.then_body, top);
        }
        const std::set<int> after_then = host_.declared;
        host_.declared = before;
        if (!branch.else_body.empty()) {
          auto else_block = out_.block("else:");
          block(branch.else_body, top);
        }
        std::set<int> both;
        for (int binding : after_then) {
          if (host_.declared.count(binding)) both.insert(binding);
        }
        host_.declared = std::move(both);
        return;
      }
      case ir::StmtKind::kAssert: {
        // Checked while JAX traces (sizes are static); never stripped like `assert` under -O.
        const auto& check = *stmt.as<ir::Assert>();
        auto raise = out_.block(context_.with_where(
            fmt::format("if {}:", py_unary("not", host_.expr(check.condition)).text), stmt.range));
        // The error quotes the kernel's source line, so a failed check reads like the assert
        // that failed: `kernel.py:8: assert y.size(0) == n failed: y must match x's columns`.
        if (check.implied) {
          // `kernel.py:9: x.size(1) must be 2 ...; it is 4`
          const auto& equal = *check.condition->as<ir::Compare>();
          const SourceFile& file = *stmt.range.file;
          out_.line(fmt::format("raise ValueError({} + {} + str({}))",
                                py_string(fmt::format("{}:{}: ", file.path(),
                                                      file.line_column(stmt.range.begin).line)),
                                host_.text(check.message), host_.text(equal.lhs)));
          return;
        }
        std::string where = py_string("assert failed");
        if (stmt.range.valid()) {
          const SourceFile& file = *stmt.range.file;
          where = py_string(fmt::format("{}:{}: assert {} failed", file.path(),
                                        file.line_column(stmt.range.begin).line,
                                        file.text_of(check.condition->range)));
        }
        out_.line(check.message ? fmt::format("raise AssertionError({} + \": \" + {})", where,
                                              host_.text(check.message))
                                : fmt::format("raise AssertionError({})", where));
        return;
      }
      case ir::StmtKind::kReturn: {
        const auto& node = *stmt.as<ir::Return>();
        std::vector<std::string> values;
        for (const ir::ExprPtr& value : node.values) give_values(value, stmt);
        for (const ir::ExprPtr& value : node.values) values.push_back(returned(value));
        // `return (out,)`: a tuple of one array, as the kernel returns it.
        if (node.tuple && values.size() == 1) values[0] = fmt::format("({},)", values[0]);
        const char* close = "";
        if (values.empty()) {
          line(node.tuple ? "return ()" : "return", stmt);
        } else {
          line(fmt::format("return {}{}", fmt::join(values, ", "), close), stmt);
        }
        return;
      }
      case ir::StmtKind::kStore:
        context_.diags.error(DiagnosticKind::kInternal, stmt.range, "a store in host code");
        return;
      case ir::StmtKind::kStaticLoop:
        context_.diags.error(DiagnosticKind::kInternal, stmt.range, "a static loop in host code");
        return;
    }
  }

  // `block_m = hl.register_block_size(m)` whose value the kernel reads (ir::Kernel::
  // block_value_bindings): the config's block, legalised here once, for the register call's
  // bound and the role of the first loop that tiles with it; every such loop keeps this value
  // (`_kept_block`, passes/kept_blocks.h) or raises while JAX traces.
  std::string block_value(const ir::Call& call) {
    const auto tunable = static_cast<size_t>(call.args[0]->as<ir::IntImm>()->value);
    std::string role = "leading";  // no loop tiles with it: no rule to follow
    [&] {
      for (const passes::Launch& launch : plan_.launches) {
        for (const passes::GridDim& grid : launch.grid) {
          const ir::BlockSource& block = kernel_.tile_dims[grid.tile_dim].block;
          if (block.kind == ir::BlockSource::Kind::kTunable &&
              static_cast<size_t>(block.tunable) == tunable) {
            role = passes::block_role_name(passes::block_role(grid));
            return;
          }
        }
      }
    }();
    return fmt::format("_legal_block({}[\"block_sizes\"][{}], {}, \"{}\")", config_, tunable,
                       host_.text(kernel_.tunable_block_ranges[tunable].max), role);
  }

  // A view of an array that holds no values yet is only a shape and dtype: jax.eval_shape
  // gives the view's without computing anything.
  bool declared_view(const ir::Let& let) {
    if (let.unpack) return false;
    const ir::VarRef* base = let.value->as<ir::VarRef>();
    if (const auto* call = let.value->as<ir::Call>(); call && !call->args.empty()) {
      const bool view =
          call->op == ir::Intrinsic::kReshape || call->op == ir::Intrinsic::kPermute ||
          call->op == ir::Intrinsic::kSwapAxes || call->op == ir::Intrinsic::kUnsqueeze ||
          call->op == ir::Intrinsic::kSqueeze;
      if (view) base = call->args[0]->as<ir::VarRef>();
    }
    if (base == nullptr || !host_.declared.count(base->binding)) return false;
    const int target = let.targets[0];
    const std::string name = binding_name(kernel_, target);
    const std::string value = host_.text(let.value);
    if (let.value->kind == ir::ExprKind::kVarRef) {
      line(fmt::format("{} = {}", name, value), let);
    } else {
      const std::string array = binding_name(kernel_, base->binding);
      line(fmt::format("{} = jax.eval_shape(lambda {}: {}, {})", name, array, value, array), let);
    }
    host_.declared.insert(target);
    return true;
  }

  // Host arithmetic reads values (`return out0 + out1`), as a host store does: an array that
  // holds none yet (an `empty` no launch wrote) gets zeros first, as a returned one does.
  void give_values(const ir::ExprPtr& value, const ir::Stmt& stmt) {
    std::set<int> read;
    const auto operand = [&](const ir::ExprPtr& side) {
      if (const auto* ref = side->as<ir::VarRef>(); ref && host_.declared.count(ref->binding)) {
        read.insert(ref->binding);
      }
    };
    ir::for_each_expr(value, [&](const ir::Expr& e) {
      if (const auto* node = e.as<ir::Binary>()) {
        operand(node->lhs);
        operand(node->rhs);
      } else if (const auto* node = e.as<ir::Compare>()) {
        operand(node->lhs);
        operand(node->rhs);
      } else if (const auto* node = e.as<ir::Unary>()) {
        operand(node->operand);
      } else if (const auto* node = e.as<ir::Call>();
                 node && node->op == ir::Intrinsic::kHostIndexSet) {
        operand(node->args[0]);  // `x.at[idx].set(v)` keeps x's other elements
        operand(node->args[1]);
      }
    });
    for (int binding : read) {
      const std::string name = binding_name(kernel_, binding);
      line(fmt::format("{} = jnp.zeros({}.shape, {}.dtype)", name, name, name), stmt);
      host_.declared.erase(binding);
    }
  }

  // Helion reads an axis of size 1 indexed by a tile (`bias[tile_m, tile_n]`, bias [1, n]) as
  // that element broadcast along the tile. Sizes are known only while JAX traces, so each input
  // whose tiled axis is not provably the loop's extent is passed through
  // `_broadcast_unit_axes`, which broadcasts such axes when they have size 1 and is a no-op
  // otherwise. The array's name is rebound for the launch (whose block shapes read its shape);
  // the lines returned put the original back when later statements read it.
  std::vector<std::string> broadcast_unit_axes(const passes::Launch& launch, const ir::Block& stmts,
                                               size_t i, size_t top) {
    std::vector<std::string> restore;
    std::set<int> done;
    for (const passes::Input& input : launch.inputs) {
      const passes::Operand& operand = input.operand;
      if (input.kind != passes::Input::Kind::kRead || operand.smem || input.gather_ids_of >= 0 ||
          done.count(operand.binding)) {
        continue;
      }
      const passes::ShapeFacts& facts = host_.facts;
      if (operand.variadic) {
        // `y[tile]` in `hl.tile(out.size())`: broadcast to the loop's whole shape unless y
        // provably has it.
        const ir::TileDim& dim = kernel_.tile_dims[launch.grid.front().tile_dim];
        const auto* shape = dim.extent->as<ir::Call>();
        const auto* of = shape && shape->op == ir::Intrinsic::kShapeOf && !shape->args.empty()
                             ? shape->args[0]->as<ir::VarRef>()
                             : nullptr;
        if (of && facts.shape_root(of->binding) == facts.shape_root(operand.binding)) continue;
        done.insert(operand.binding);
        emit_broadcast(operand.binding, host_.text(dim.extent), stmts, i, top, restore);
        continue;
      }
      const std::optional<std::string> extents = unproven_extents(operand);
      if (!extents) continue;
      done.insert(operand.binding);
      emit_broadcast(operand.binding, *extents, stmts, i, top, restore);
    }
    // A parameter the launch only writes must cover the loop's range too: its blocks would be
    // stored past its end (and never broadcast: a store has no unit axis to spread).
    for (const passes::Output& output : launch.outputs) {
      const int binding = output.operand.binding;
      if (output.operand.variadic || output.operand.smem || done.count(binding) ||
          kernel_.bindings[static_cast<size_t>(binding)].origin != ir::Binding::Origin::kParam) {
        continue;
      }
      const std::optional<std::string> extents = unproven_extents(output.operand);
      if (!extents) continue;
      done.insert(binding);
      context_.imports.helpers.insert("broadcast_unit_axes");
      out_.line(fmt::format("_check_stored_axes({}, {}, {}, {})", binding_name(kernel_, binding),
                            *extents, double_quoted(who(binding)),
                            double_quoted(context_.where(stmts[i]->range))));
    }
    return restore;
  }

  // The tuple of the loop ends that tile each axis of `operand` where the axis is not provably
  // as long (None for the others), or nullopt when every tiled axis provably is.
  std::optional<std::string> unproven_extents(const passes::Operand& operand) {
    const passes::ShapeFacts& facts = host_.facts;
    const int rank = kernel_.bindings[operand.binding].type.rank;
    if (rank < 0) return std::nullopt;
    std::vector<std::string> extents(static_cast<size_t>(rank), "None");
    bool any = false;
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.kind != passes::ViewAxis::Kind::kTile || axis.array_axis < 0) continue;
      const ir::TileDim& dim = kernel_.tile_dims[axis.tile_dim];
      if (ir::bounds_in_kernel(kernel_, dim)) continue;
      if (facts.equal_sizes(facts.axis_size(operand.binding, axis.array_axis),
                            facts.size_of(dim.extent))) {
        continue;
      }
      extents[static_cast<size_t>(axis.array_axis)] = host_.text(dim.extent);
      any = true;
    }
    if (!any) return std::nullopt;
    return py_tuple(extents);
  }

  // "kernel(): `x`", how trace-time messages name an array parameter.
  std::string who(int binding) const {
    return fmt::format("{}(): `{}`", kernel_.name,
                       kernel_.bindings[static_cast<size_t>(binding)].name);
  }

  // Outputs a rank-polymorphic loop over another array's shape stores into
  // (passes::Output::checked_loop_shape) must have that shape, which JAX knows while it traces.
  void check_loop_shapes(const passes::Launch& launch, const ir::Stmt& loop) {
    for (const passes::Output& output : launch.outputs) {
      if (!output.checked_loop_shape) continue;
      const ir::TileDim& dim = kernel_.tile_dims[launch.grid.front().tile_dim];
      const std::string name = binding_name(kernel_, output.operand.binding);
      const std::string shape = host_.text(dim.extent);
      auto raise = out_.block(context_.with_where(
          fmt::format("if tuple({}.shape) != tuple({}):", name, shape), loop.range));
      const SourceFile& file = *loop.range.file;
      out_.line(fmt::format(
          "raise ValueError({} + str(tuple({}.shape)) + {} + str(tuple({})))",
          py_string(fmt::format("{}:{}: the loop over `{}` stores into `{}`, whose shape ",
                                file.path(), file.line_column(loop.range.begin).line,
                                file.text_of(dim.extent->range), name)),
          name,
          py_string(" must be the loop's (Helion specializes shapes; helionc does not mask a "
                    "rank known only at trace time): "),
          shape));
    }
  }

  // `y = _broadcast_unit_axes(y, extents, ...)`, saving y first when later statements read it.
  // The helper also refuses an axis shorter than the loop's range (and not 1), naming the array
  // and the loop (stmts[i]): its blocks would read past the array.
  void emit_broadcast(int binding, const std::string& extents, const ir::Block& stmts, size_t i,
                      size_t top, std::vector<std::string>& restore) {
    context_.imports.helpers.insert("broadcast_unit_axes");
    const std::string name = binding_name(kernel_, binding);
    if (read_after(binding, stmts, i, top)) {
      const std::string saved = host_.temporary(name + "_unbroadcast");
      out_.line(fmt::format("{} = {}", saved, name));
      restore.push_back(fmt::format("{} = {}", name, saved));
    }
    out_.line(fmt::format("{} = _broadcast_unit_axes({}, {}, {}, {})", name, name, extents,
                          double_quoted(who(binding)),
                          double_quoted(context_.where(stmts[i]->range))));
  }

  // Whether a statement after stmts[i] (or after top-level statement `top`) mentions `binding`.
  bool read_after(int binding, const ir::Block& stmts, size_t i, size_t top) const {
    for (size_t j = i + 1; j < stmts.size(); ++j) {
      if (mentions(stmts[j], binding)) return true;
    }
    for (size_t j = top + 1; j < kernel_.body.size(); ++j) {
      if (mentions(kernel_.body[j], binding)) return true;
    }
    return false;
  }

  void line(std::string text, const ir::Stmt& stmt) {
    out_.line(context_.with_where(std::move(text), stmt.range));
  }

  // A returned value; an `empty` array no launch wrote is returned as zeros (JAX has no
  // uninitialised arrays).
  std::string returned(const ir::ExprPtr& value) {
    std::string text = host_.text(value);
    if (const auto* ref = value->as<ir::VarRef>(); ref && host_.declared.count(ref->binding)) {
      return fmt::format("jnp.zeros({}.shape, {}.dtype)", text, text);
    }
    return text;
  }

  void alloc(const ir::Alloc& alloc, const ir::Block& stmts, size_t i) {
    const std::string name = binding_name(kernel_, alloc.target);
    const std::string shape = host_.text(alloc.shape);
    const std::string dtype = host_.text(alloc.dtype);
    if (!alloc.fill || overwritten_before_use(alloc.target, stmts, i)) {
      host_.declared.insert(alloc.target);
      line(fmt::format("{} = jax.ShapeDtypeStruct({}, {})", name, shape, dtype), *stmts[i]);
      return;
    }
    std::string value;
    if (ir::is_number(*alloc.fill, 0)) {
      value = py_call("jnp.zeros", {shape, dtype}).text;
    } else if (ir::is_number(*alloc.fill, 1)) {
      value = py_call("jnp.ones", {shape, dtype}).text;
    } else {
      value = py_call("jnp.full", {shape, host_.text(alloc.fill), dtype}).text;
    }
    line(fmt::format("{} = {}", name, value), *stmts[i]);
  }

  // Whether the first statement after stmts[i] that uses `binding` is a launch that writes all
  // of it without reading it (so its initial value is never seen).
  bool overwritten_before_use(int binding, const ir::Block& stmts, size_t i) const {
    for (size_t j = i + 1; j < stmts.size(); ++j) {
      if (!mentions(stmts[j], binding)) continue;
      auto launch = plan_.launch_of.find(stmts[j].get());
      if (launch == plan_.launch_of.end()) return false;
      for (const passes::Output& output : plan_.launches[launch->second].outputs) {
        if (output.operand.binding == binding) return output.aliased_input < 0;
      }
      return false;
    }
    return false;
  }

  PythonWriter& out_;
  EmitContext& context_;
  const ir::Kernel& kernel_;
  const passes::KernelPlan& plan_;
  const std::vector<LaunchNames>& names_;
  HostState host_;
  // `kernel(x, weight, eps=1e-5, *, interpret=None)`, the public signature without hints.
  std::string call_signature_;
  const autotune::ConfigFile* config_file_;  // the kernel's --config, or null
  const bool tuned_entries_;                 // the config table has entries to look the call up in
  std::string config_;
};

}  // namespace

bool print_public_function(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                           const passes::KernelPlan& plan, const passes::ShapeFacts& facts,
                           const std::vector<LaunchNames>& names,
                           const autotune::ConfigFile* config) {
  return HostPrinter(out, context, kernel, plan, facts, names, config).print();
}

}  // namespace helionc::backend::pallas
