// Lowers one decorated kernel function from its syntax tree to the typed tile IR. One handler
// per syntax construct, split by family: statements (lower_statements.cpp), expressions
// (lower_expressions.cpp), calls to torch/hl/builtins and methods (lower_calls.cpp), tile loops
// (lower_tiles.cpp), subscripts and hl.load/hl.store (lower_subscripts.cpp), allocations
// (lower_allocations.cpp).
//
// Error handling: a handler that reports an error throws LoweringAbort; the statement handler
// catches it and goes on with the next statement, so one run reports every broken statement
// once, and nothing is ever silently dropped.
#pragma once

#include <array>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "frontend/imports.h"
#include "frontend/kernel_discovery.h"
#include "frontend/module_constants.h"
#include "frontend/type_rules.h"
#include "ir/nodes.h"
#include "parse/syntax_tree.h"
#include "support/diagnostics.h"

namespace helionc::frontend {

using parse::SyntaxNode;

struct LoweringAbort {};

// The arguments of a call, split into positional and keyword ones.
struct CallArgs {
  SyntaxNode call;
  std::vector<SyntaxNode> positional;
  std::vector<std::pair<std::string, SyntaxNode>> keywords;
  // The first `*seq` among the positional arguments (kept there, as a `list_splat`): only
  // calls that take sizes unpack it (`out.view(*x.size(), n)`); check_arity refuses it.
  SyntaxNode splat;

  SyntaxNode keyword(std::string_view name) const;
};

// start, stop and step of a slice (KernelLowering::slice_parts).
using SliceParts = std::array<parse::SyntaxNode, 3>;

class KernelLowering {
 public:
  // A parameter's updated contents that no Python name holds (`x = x.view(-1)`, then a store).
  static constexpr int kNoName = -2;

  KernelLowering(const KernelSyntax& syntax, const ImportTable& imports,
                 const ModuleConstants& constants, DiagnosticEngine& diags);

  // The kernel, or nullopt when any error was reported for it.
  std::optional<ir::Kernel> run();

 private:
  // ---- kernel_lowering.cpp: the function itself, bindings, scopes, diagnostics
  void lower_decorator();
  // A return annotation other than `None` on a kernel with no `return` of a value: an error.
  void check_declared_return();
  // ir::Kernel::doc.
  void read_docstring();
  // ---- builtin_configs.cpp: `config=helion.Config(...)` / `configs=[...]` in the decorator
  ir::BuiltinConfig lower_builtin_config(const SyntaxNode& call);
  [[noreturn]] void not_a_module_config(const SyntaxNode& name, std::string_view what);
  void lower_params();
  // A new binding named `name`, now in scope. Takes its arguments by value: callers pass the
  // name and type of an existing binding, which the growth of `kernel_.bindings` would free.
  int bind(std::string name, ir::Type type, ir::Binding::Origin origin, SourceRange range);
  // A binding no source name reaches (a value the lowering itself introduces).
  int bind_hidden(std::string name, ir::Type type, ir::Binding::Origin origin, SourceRange range);
  ir::ExprPtr ref(int binding, SourceRange range) const;
  const ir::Binding& binding(int id) const { return kernel_.bindings[id]; }
  // Sets a tensor binding's rank from new evidence, or reports a mismatch with the old one.
  void refine_rank(int binding, int rank, SourceRange evidence);
  [[noreturn]] void fail(DiagnosticKind kind, SourceRange range, std::string message);
  [[noreturn]] void unsupported(SourceRange range, std::string what);
  bool in_device() const { return device_depth_ > 0; }

  // ---- lower_statements.cpp
  ir::Block lower_block(const SyntaxNode& block);
  void lower_statement(const SyntaxNode& stmt, ir::Block& out);
  void lower_assignment(const SyntaxNode& node, ir::Block& out);
  void lower_augmented_assignment(const SyntaxNode& node, ir::Block& out);
  // `a, b = torch.empty_like(x), torch.zeros_like(x)`: false when the statement is not that.
  bool lower_allocation_pairs(const SyntaxNode& target, const SyntaxNode& value, ir::Block& out);
  // Whether any of `values` reads a binding named like one of the targets `names`.
  bool reads_any_name(const std::vector<ir::ExprPtr>& values,
                      const std::vector<SyntaxNode>& names) const;
  void lower_store(const SyntaxNode& target, ir::ExprPtr value, SourceRange range, ir::Block& out);
  // Appends `tensor[index] = value` after checking that the value fits the block's `dims`
  // (`shown`: how the source names the tensor); every store goes through here. `accumulate`:
  // a scatter-add (ir::Store::accumulate).
  void append_store(ir::ExprPtr tensor, ir::Index index, const std::vector<ir::Dim>& dims,
                    ir::ExprPtr value, SourceRange range, std::string_view shown, ir::Block& out,
                    bool accumulate = false);
  // `value` for a store into `dims`: its literal sizes that land on a tile's dimension become
  // that tile, through a `fit_block` that checks the block while the module traces.
  ir::ExprPtr fit_to_tiles(ir::ExprPtr value, const std::vector<ir::Dim>& dims, SourceRange range);
  void lower_assert(const SyntaxNode& node, ir::Block& out);
  void lower_if(const SyntaxNode& node, ir::Block& out);
  // `if` on a device scalar (`if live >= 2:`) around assignments to tile values: both branches
  // run and each name they rebind is selected (`jnp.where`); false when `node` is not one.
  bool lower_device_if(const SyntaxNode& node, ir::Block& out);
  // `if` on a device scalar whose branches store, loop or have an `else`/`elif`
  // (lower_device_ifs.cpp): an ir::If on the device, its branches under `pl.when`.
  ir::StmtPtr lower_guarded_if(ir::ExprPtr condition, const SyntaxNode& body,
                               const std::vector<SyntaxNode>& alternatives, SourceRange range);
  // Its `if`/`elif`/`else` chain from alternative `next` on; `bound` gathers the names the
  // branches bind (not defined after the `if`).
  ir::StmtPtr lower_guarded_chain(ir::ExprPtr condition, const SyntaxNode& body,
                                  const std::vector<SyntaxNode>& alternatives, size_t next,
                                  SourceRange range, std::set<std::string>& bound);
  // One branch: names of the code before the `if` may not be rebound in it.
  ir::Block lower_guarded_branch(const SyntaxNode& body, SourceRange if_range,
                                 std::set<std::string>& bound);
  // Whether a block only assigns names (the `jnp.where` form of a device `if`).
  static bool assigns_only(const SyntaxNode& block);
  // Whether a value is known only when the kernel runs: it reads device values other than
  // the trace-time ones (static loop variables, constants bound in device code).
  bool is_device_value(const ir::ExprPtr& expr) const;
  // A condition a device `if` can branch on: one bool, not a tile of them.
  static bool is_scalar_condition(const ir::ExprPtr& condition);
  ir::StmtPtr lower_if_chain(const SyntaxNode& condition, const SyntaxNode& body,
                             const std::vector<SyntaxNode>& alternatives, size_t next,
                             SourceRange range);
  // The branches of an `if` on a static value (null for a device `if`): a name bound on one
  // branch only stays usable under the same condition (lower_static_guards.cpp).
  struct StaticBranches {
    ir::ExprPtr condition;
    ir::Block* then_body = nullptr;
    ir::Block* else_body = nullptr;
  };
  std::vector<ir::If::Merge> merge_branch_scopes(
      const std::map<std::string, int, std::less<>>& before,
      const std::map<std::string, int, std::less<>>& then_scope,
      const std::map<std::string, int, std::less<>>& else_scope, SourceRange range,
      const StaticBranches* branches = nullptr);

  // ---- lower_static_guards.cpp: names bound on one branch of an `if` on a static value
  // (`if compute_bias_grad: grad_b_acc = ...`). Helion compiles only the branch the value
  // takes, so such a name is defined wherever the kernel reads it under the same condition.
  struct StaticGuard {
    ir::ExprPtr condition;
    bool holds = true;  // the name exists when `condition` holds (false: when it does not)
  };
  // The conditions of the static `if`s being lowered around the current statement.
  std::vector<StaticGuard> static_guards_;
  // Bindings usable only under a guard: made on one branch, or carried or merged from one.
  std::map<int, StaticGuard> guarded_;
  // Those of them bound on one branch with no value on the other (not to be carried).
  std::set<int> one_branch_;
  // For `name`, bound as `defined` on one branch only: keeps it in scope under the guard, with
  // zeros of its type on the other branch when it is a device tile value (a loop may carry
  // it); returns the merge, if one was made.
  std::optional<ir::If::Merge> keep_one_branch_name(const std::string& name, int defined,
                                                    bool in_then, const StaticBranches& branches,
                                                    SourceRange range);
  // Reports `id` used where its guard may not hold (a read of a name bound on one branch).
  void check_static_guard(int id, SourceRange use);
  // The guard a merge or a carry of these bindings inherits.
  void inherit_guard(int result, std::initializer_list<int> sources);
  // After an error, the names a broken assignment would have bound: later uses stay quiet.
  void poison_targets(const SyntaxNode& stmt);
  void bind_targets(const SyntaxNode& target, const ir::ExprPtr& value, SourceRange range,
                    ir::Block& out);

  // ---- lower_expressions.cpp
  ir::ExprPtr lower_expr(const SyntaxNode& node);
  // `a if condition else b` on a condition known while JAX traces (ir::Intrinsic::kIfElse).
  ir::ExprPtr lower_conditional(const SyntaxNode& node);
  ir::ExprPtr lower_identifier(const SyntaxNode& node);
  // The elements of a shape or tuple of known length (`x.shape`: `x.size(i)` each).
  std::vector<ir::ExprPtr> sequence_elements(const ir::ExprPtr& value, SourceRange range);
  ir::ExprPtr slice_sequence(const ir::ExprPtr& base, const SyntaxNode& slice);
  ir::ExprPtr slice_trace_time_shape(const ir::ExprPtr& base, const SyntaxNode& slice,
                                     const SliceParts& parts);
  // A module-level constant (`_SCALE = 0.5`) read by name, or null when `node` names none.
  ir::ExprPtr lower_module_constant(const SyntaxNode& node);
  // `config=CONFIG`: the module-level value a name in the decorator stands for (the node
  // itself when it is not a name of one).
  SyntaxNode resolve_module_name(const SyntaxNode& node) const;
  // A config's name that is also assigned under an `if` helionc cannot evaluate (`config =
  // None` then `if os.environ...: config = helion.Config(...)`): the value assigned outside
  // the `if`s, with a warning at each such assignment (builtin_configs.cpp). A call of a
  // helper without parameters that only returns a value (`config=td_config()`) is that value.
  SyntaxNode resolve_config_name(const SyntaxNode& node);
  ir::ExprPtr lower_integer(const SyntaxNode& node);
  ir::ExprPtr lower_float(const SyntaxNode& node);
  ir::ExprPtr lower_attribute(const SyntaxNode& node);
  ir::ExprPtr lower_subscript(const SyntaxNode& node);
  ir::ExprPtr lower_binary(const SyntaxNode& node);
  ir::ExprPtr lower_unary(const SyntaxNode& node);
  ir::ExprPtr lower_comparison(const SyntaxNode& node);
  ir::ExprPtr lower_boolean(const SyntaxNode& node);
  ir::ExprPtr lower_sequence(const SyntaxNode& node);

  // ---- lower_comprehensions.cpp: comprehensions and `list(...)`/`tuple(...)` unrolled into
  // the list they make, written out; `for` in device code over such a list.
  using ComprehensionNames = std::map<std::string, ir::ExprPtr, std::less<>>;
  static constexpr size_t kMaxUnrolledElements = 4096;
  ir::ExprPtr lower_comprehension(const SyntaxNode& node);
  // `list(...)`, `tuple(...)` (of a generator too); null when `call` is no such call.
  ir::ExprPtr lower_sequence_call(const SyntaxNode& call);
  // The value a comprehension variable stands for, innermost first; null when none.
  ir::ExprPtr comprehension_name(std::string_view name) const;
  // A list or tuple of these elements, typed as a written-out one is.
  ir::ExprPtr make_sequence(std::vector<ir::ExprPtr> elements, SourceRange range);
  // The elements of a written-out list or tuple, or of a name bound to one (known_sequences_).
  std::optional<std::vector<ir::ExprPtr>> known_elements(const ir::ExprPtr& value);
  // Records `binding` = `value` when its elements can be read again wherever it is iterated.
  void note_known_sequence(int binding, const ir::ExprPtr& value);
  // The elements an iterable stands for while compiling (`what` names the construct in errors).
  std::vector<ir::ExprPtr> iterable_elements(const SyntaxNode& iterable, std::string_view what);
  void bind_comprehension_target(const SyntaxNode& target, const ir::ExprPtr& value,
                                 ComprehensionNames& names);
  void unroll_comprehension(const std::vector<SyntaxNode>& clauses, size_t next,
                            const SyntaxNode& body, std::vector<ir::ExprPtr>& out);
  // Dicts of constant keys: `d = {...}` / a dict comprehension (false for other assignments),
  // and `d[key]` (null when `node` reads no such dict).
  using KnownDict = std::vector<std::pair<std::string, ir::ExprPtr>>;
  static std::optional<std::string> dict_key(const ir::ExprPtr& key);
  bool lower_dict_assignment(const SyntaxNode& target, const SyntaxNode& value);
  ir::ExprPtr lower_dict_subscript(const SyntaxNode& node);

  // ---- lower_shape_splats.cpp
  // `[n, *x.shape[1:]]` of an `x` whose rank is not known yet: a shape of unknown rank holding
  // the unpacked shapes (each `*` at `splats`), resolved once the kernel is read.
  ir::ExprPtr defer_shape_splats(std::vector<ir::ExprPtr> elements, std::vector<SourceRange> splats,
                                 SourceRange range);
  void resolve_shape_splats();
  // lower_tiles.cpp: an `hl.grid(x.size())` body must be elementwise on `x[var]`.
  void check_elementwise_grid(const ir::Block& body, int var, SourceRange loop);
  ir::ExprPtr make_binary(ir::BinaryOp op, ir::ExprPtr lhs, ir::ExprPtr rhs, SourceRange range);
  ir::ExprPtr make_compare(ir::CompareOp op, ir::ExprPtr lhs, ir::ExprPtr rhs, SourceRange range);
  // The type of an elementwise combination of `a` and `b`, or an error at `range`.
  ir::Type combine_types(const ir::Expr& a, const ir::Expr& b, ArithKind kind, SourceRange range);
  // The type of host arithmetic on whole tensors (and scalars): broadcast rank, promoted dtype.
  static ir::Type host_array_type(const ir::Type& a, const ir::Type& b, ArithKind kind);

  // Whether an `acc` of shape `acc` takes a product of shape `product`: the same dims, or sizes
  // whose equality the module checks at trace time (added here), whole axes of different
  // tensors included.
  bool accumulator_fits(const std::vector<ir::Dim>& acc, const std::vector<ir::Dim>& product,
                        SourceRange range);

  // ---- lower_literal_sizes.cpp
  // broadcast_dims, with the trace-time check of every literal size that meets a tensor's axis
  // (at `range`) added before the enclosing launch.
  std::optional<std::vector<ir::Dim>> unify_dims(const std::vector<ir::Dim>& a,
                                                 const std::vector<ir::Dim>& b, SourceRange range);
  // `op` is kEq where the two meet, kGe where a window reads the axis up to the literal.
  void require_size(const SizeAgreement& agreement, SourceRange range,
                    ir::CompareOp op = ir::CompareOp::kEq);
  // Two whole axes (`a`, `b`: Dim::Kind::kFull) that must have one length, which only the
  // call's shapes tell: `why` ends the message of the trace-time check.
  void require_equal_axes(const ir::Dim& a, const ir::Dim& b, std::string_view why,
                          SourceRange range);
  // Appends the checks gathered while lowering a top-level loop (before the loop itself).
  void flush_size_checks(ir::Block& out);

  // ---- lower_reshape_groups.cpp
  // `.reshape()`/`.view()` of `value` to `target` (nullopt: the -1) that merges or splits whole
  // axes and literal sizes between unchanged tiles, with its element-count checks; null when
  // the target does not regroup the value's shape that way. `to` spells the target.
  ir::ExprPtr regroup_reshape(const ir::ExprPtr& value, std::vector<std::optional<ir::Dim>> target,
                              std::string_view shown, const std::string& to, SourceRange range);
  // ---- lower_paired_tiles.cpp
  // `x[tile_i] * y[tile_j]` for two loops over one range whose begin is read in the kernel:
  // `rhs` takes `lhs`'s tile dimension, its rows past the loop's end zeros, and the two loops
  // are marked paired (ir::TileDim::paired_with). Leaves other operands as they are.
  void pair_tiles(const ir::ExprPtr& lhs, ir::ExprPtr& rhs, SourceRange range);
  // The error for two loops' tiles over one range meeting at one position of `a` and `b`
  // that pair_tiles did not pair, when there are such; returns otherwise.
  void refuse_paired_tiles(const std::vector<ir::Dim>& a, const std::vector<ir::Dim>& b,
                           SourceRange range);
  // ---- lower_tile_groups.cpp
  // A reshape size that is a part of a tile's block (`tile.block_size // 2`): Dim::kTilePart,
  // after checking that the tile can be viewed in such groups; nullopt for other sizes.
  std::optional<ir::Dim> tile_part_size(const ir::ExprPtr& size, SourceRange range);
  // `.reshape()`/`.view()` of `value` to `target` that splits tiles' blocks into groups
  // (`[tile_d] -> [tile_d.block_size // 2, 2]`) or merges such groups back, every other
  // dimension kept; null when the target is not such a reshape of the value's shape.
  ir::ExprPtr group_tile_reshape(const ir::ExprPtr& value,
                                 const std::vector<std::optional<ir::Dim>>& target,
                                 std::string_view shown, SourceRange range);
  // ---- lower_reshape_merges.cpp
  // `value` with the tiles that a reshape to `target` merges into another tile's dimension as
  // unit dimensions, their loops given block size 1; null when the reshape merges no tiles.
  ir::ExprPtr merge_unit_tiles(const ir::ExprPtr& value,
                               const std::vector<std::optional<ir::Dim>>& target,
                               std::string_view shown, const std::string& to, SourceRange range);
  ir::ExprPtr lower_dtype_expr(const SyntaxNode& node);
  ir::ExprPtr lower_shape_expr(const SyntaxNode& node);
  std::optional<ir::ScalarType> dtype_constant(const SyntaxNode& node);
  // The warning for `torch.int64`/`torch.long`/`.long()`, which mean int32 here.
  void narrowed_int64(SourceRange range, const std::string& what);

  // ---- lower_calls.cpp
  ir::ExprPtr lower_call(const SyntaxNode& node);
  ir::ExprPtr lower_qualified_call(const std::string& name, const CallArgs& args);
  ir::ExprPtr lower_method_call(const SyntaxNode& receiver_node, std::string_view method,
                                const CallArgs& args);
  ir::ExprPtr lower_builtin_call(std::string_view name, const CallArgs& args);
  ir::ExprPtr make_math(ir::Intrinsic op, ir::ExprPtr x, SourceRange range);
  // `len(x)`, `min(a, b)`, `max(...)`, `int(v)`, `abs(v)` on static values; null otherwise.
  ir::ExprPtr lower_static_builtin(std::string_view name, const CallArgs& args);
  ir::ExprPtr make_cast(ir::ExprPtr value, ir::ExprPtr dtype, SourceRange range);
  // A tile of one value: hl.full/hl.zeros, or torch.zeros/ones/full and `x.new_zeros` & co.
  // in device code (`fill` 0 or 1, or -1 for the value as second argument); its dtype is
  // `default_dtype` (float32 when null) unless the call gives one.
  ir::ExprPtr make_filled_tile(const CallArgs& args, std::string_view shown, int fill,
                               bool torch_form, ir::ExprPtr default_dtype = nullptr);
  ir::ExprPtr make_full_like(ir::ExprPtr like, ir::ExprPtr fill, ir::ExprPtr dtype,
                             SourceRange range);
  CallArgs split_args(const SyntaxNode& call);
  // The text of a plain one-line string literal (`"tanh"`, `'relaxed'`), or nullopt.
  static std::optional<std::string_view> plain_string(const SyntaxNode& node);
  // A slice `start:stop:step` as its three parts, each null when absent (tree-sitter's slice
  // has no fields).
  static SliceParts slice_parts(const SyntaxNode& slice);
  // The entries of an index list of `hl.load`, `hl.store` or `hl.atomic_*`.
  static std::vector<SyntaxNode> index_list(const SyntaxNode& node);
  void check_arity(const CallArgs& args, std::string_view name, size_t min, size_t max,
                   std::initializer_list<std::string_view> keywords);
  // The argument Python binds to parameter `name` at `position` (given by position or by
  // keyword), or a null node; both at once is an error, as in Python.
  SyntaxNode argument(const CallArgs& args, size_t position, std::string_view name);

  // ---- lower_products.cpp: matrix products (`torch.matmul/mm/bmm/addmm/baddbmm`, `a @ b`,
  // `a.matmul(b)`, `hl.dot`). Each returns null when `name`/`method` is not a product.
  ir::ExprPtr lower_product_function(const std::string& name, const CallArgs& args);
  ir::ExprPtr lower_product_method(const ir::ExprPtr& receiver, std::string_view method,
                                   const CallArgs& args);
  // `a @ b` and `torch.matmul(a, b)`: PyTorch's result dtype, float32 accumulation.
  ir::ExprPtr make_matmul(const ir::ExprPtr& a, const ir::ExprPtr& b, std::string_view what,
                          int rank, SourceRange range);
  // A 2-D operand of a product with a 3-D one, repeated along the other's batch dimension.
  void broadcast_batch(ir::ExprPtr& a, ir::ExprPtr& b, SourceRange range);
  // The product in the accumulation dtype (ir kDot); `rank` 2 or 3, or 0 for either.
  ir::ExprPtr make_dot(ir::ExprPtr a, ir::ExprPtr b, std::string_view what, int rank, bool integers,
                       SourceRange range);
  // `addend + product` in the dtype of the accumulator `acc` (addend null: the product alone).
  ir::ExprPtr accumulate(const ir::ExprPtr& addend, const ir::ExprPtr& product,
                         const ir::ExprPtr& acc, SourceRange range);
  // A dtype-valued expression for the dtype of `value` (a constant when known).
  ir::ExprPtr dtype_of(const ir::ExprPtr& value, SourceRange range);

  // ---- lower_packs.cpp: parameters that are lists, tuples or dicts of tensors (ir::ParamPack)
  // Records `name` as a pack of tensor parameters when its annotation (or, unannotated, its
  // uses) makes it one; false otherwise.
  bool lower_pack_param(const SyntaxNode& name, const SyntaxNode& annotation);
  // The pack an identifier names (not shadowed by a local), or -1.
  int pack_named(const SyntaxNode& node) const;
  // `xs[0]`, `d["key"]` of a pack: a reference to the element; null when `node` is no pack's
  // subscript.
  ir::ExprPtr lower_pack_subscript(const SyntaxNode& node);
  // `a, b = xs`, `ys = xs`, `ys = list(xs)`, `ys = [f(x) for x in xs]`: false when `value`
  // reads no pack that way.
  bool lower_pack_assignment(const SyntaxNode& target, const SyntaxNode& value, ir::Block& out);
  // `ys = [f(x) for x in xs]`, `ys = tuple(f(x) for x in xs)` in host code: a local pack of
  // one host value per element; false when `value` is no comprehension over a pack.
  bool lower_pack_comprehension(const SyntaxNode& target, const SyntaxNode& value, ir::Block& out);
  // `len(xs)`: null when the argument is no pack.
  ir::ExprPtr lower_pack_len(const SyntaxNode& argument);
  // `for x in xs`, `enumerate(xs)`, `zip(xs, ys)` in device code, unrolled: false when the
  // iterable reads no pack.
  bool lower_pack_for(const SyntaxNode& node, ir::Block& out);
  struct PackItem;
  std::vector<PackItem> pack_items(const SyntaxNode& iterable);
  void bind_pack_item(const SyntaxNode& target, const PackItem& item, ir::Block& out);
  // The pack's elements; an error at `use` when only a least length is known.
  const std::vector<int>& exact_pack(int pack, const SyntaxNode& use);

  // ---- lower_lambdas.cpp: callable parameters with a lambda default (`epilogue=lambda acc,
  // tile: acc`), inlined where device code calls them.
  // Records `name` as a callable parameter when it is one; false otherwise.
  bool lower_callable_param(const SyntaxNode& name, const SyntaxNode& annotation,
                            const SyntaxNode& default_node);
  ir::ExprPtr inline_lambda(int binding, const CallArgs& args);
  // Inside an inlined lambda body: the argument a parameter name stands for, or an error for a
  // free variable; null outside lambda bodies and for imported modules.
  ir::ExprPtr lambda_name(const SyntaxNode& identifier);
  // Reports a call `f(...)` of a plain name inside an inlined lambda body unless `f` is a builtin.
  void check_lambda_callee(const SyntaxNode& callee);

  // ---- lower_callables.cpp: callable parameters passed at run time (no lambda default),
  // called on JAX values while JAX traces the kernel.
  void lower_runtime_callable_param(const SyntaxNode& name);
  ir::ExprPtr lower_callable_call(int binding, const CallArgs& args);
  // An argument of such a call as the callable sees it: tiles (in tuples too) become
  // Intrinsic::kCallTile objects, whose dimensions are appended to `tile_dims`.
  ir::ExprPtr callable_argument(const ir::ExprPtr& arg, const std::string& callable,
                                std::vector<int>& tile_dims);

  // ---- lower_helpers.cpp: calls of helper functions of the kernel's file, inlined.
  struct LambdaFrame;
  // The inlined call `name(...)`, or null when no helper of that name is in scope.
  ir::ExprPtr lower_helper_call(std::string_view name, const CallArgs& args);
  ir::ExprPtr inline_helper(const SyntaxNode& function, const ModuleConstants& scope,
                            LambdaFrame frame,
                            const std::vector<std::pair<SyntaxNode, SyntaxNode>>& params,
                            const CallArgs& args);
  // Inside an inlined helper: a free name of its body (a constant of its scopes), or an error.
  ir::ExprPtr helper_free_name(const SyntaxNode& identifier, const LambdaFrame& frame);
  [[noreturn]] void helper_unsupported(const SyntaxNode& where, std::string what,
                                       const LambdaFrame& frame);

  // ---- lower_tile_ops.cpp: reductions, normalisations, shape ops and creation on tiles,
  // tile attributes. Each returns null when `name` is not one of its functions.
  ir::ExprPtr lower_tile_method(const ir::ExprPtr& receiver, std::string_view method,
                                const CallArgs& args);
  ir::ExprPtr lower_tile_function(const std::string& name, const CallArgs& args);
  ir::ExprPtr lower_tile_attribute(const ir::ExprPtr& base, std::string_view attr,
                                   SourceRange range);

  // ---- lower_tile_windows.cpp: subscripts of tile values
  ir::ExprPtr lower_tile_subscript(const ir::ExprPtr& base, const SyntaxNode& node);
  // One index item as a window of the indexed dimension: from `start`, `length` elements, of
  // dimension `result`; `loop_dim` the tile whose loop moves it (-1: constant, ending at
  // `stop_literal`); `scalar` when the dimension is dropped (`v[1]`, `v[tile.begin]`).
  struct Window {
    ir::ExprPtr start;
    ir::ExprPtr length;
    ir::Dim result;
    int loop_dim = -1;
    int64_t stop_literal = -1;
    bool scalar = false;
    // `v[live - c : live]` under `if live >= c'` (c <= c'): the rows before the live rows'
    // end, inside them; `live` is the device int binding (the indexed tile must be its block's).
    int live_binding = -1;
  };
  std::optional<Window> window_of(const SyntaxNode& item);
  std::optional<Window> live_tail_window(const SyntaxNode& start, const SyntaxNode& stop);
  ir::ExprPtr make_window(const ir::ExprPtr& value, int axis, const Window& window,
                          SourceRange range);
  // Whether the loop of `loop_dim` runs over the live rows of a block of `outer_dim`
  // (`hl.tile(outer.end - outer.begin)`).
  bool spans_live_rows(int loop_dim, int outer_dim) const;
  // Whether `extent` is `outer.end - outer.begin` (through names bound to it).
  bool is_live_rows(const ir::ExprPtr& extent, int outer_dim) const;
  // `if n >= k:` being lowered on device scalars, innermost last: (the binding `n`, k).
  std::vector<std::pair<int, int64_t>> device_guards_;
  // Device-code bindings whose values are Python values while JAX traces (a static loop's
  // variable, `scale = 0.5`): an `if` on them is static.
  std::set<int> trace_time_values_;
  // A device int bound to a name (`live = outer.end - outer.begin`): what it stands for.
  ir::ExprPtr resolve_device_int(ir::ExprPtr value) const;
  // A host int bound to a size (`m, n = x.size()`): the size it stands for (lower_tile_ops.cpp).
  ir::ExprPtr resolve_host_size(ir::ExprPtr value) const;
  // `hl.load(x, [index], extra_mask=m)` and `hl.store(x, [index], value, extra_mask=m)`:
  // masked-off elements read as 0 and are not written.
  ir::ExprPtr lower_hl_load(const CallArgs& args);
  void lower_hl_store(const CallArgs& args, ir::Block& out);
  // The one `...` among an index's entries (null when none); two are an error.
  const SyntaxNode* single_ellipsis(const std::vector<SyntaxNode>& items);
  // Inserts at `at` the `:` entries that `...` stands for, then lowers the slices written after
  // it (`late_slices`: placeholders' positions in `index` before the insertion).
  void expand_ellipsis(int tensor, const SyntaxNode& ellipsis, size_t at,
                       const std::vector<std::pair<size_t, SyntaxNode>>& late_slices,
                       ir::Index& index);
  ir::Index lower_index_items(int tensor, const std::vector<SyntaxNode>& items, SourceRange range,
                              std::vector<ir::Dim>* dims);
  ir::ExprPtr make_reduction(ir::Intrinsic op, const ir::ExprPtr& value, const SyntaxNode& dim,
                             const SyntaxNode& keepdim, SourceRange range);
  // The axes a reduction's `dim` names (every axis when it is absent, a list of them, or one).
  std::vector<int> reduced_axes(ir::Intrinsic op, const ir::ExprPtr& value, const SyntaxNode& dim,
                                SourceRange range);
  ir::ExprPtr reduce_axes(ir::Intrinsic op, const ir::ExprPtr& value, std::vector<int> axes,
                          bool keep, SourceRange range);
  // ---- lower_moments.cpp: var, std, var_mean and std_mean of a tile value (the function or
  // the method; `receiver` is the value for both). Null when `name` is none of them.
  ir::ExprPtr lower_moments(std::string_view name, const ir::ExprPtr& receiver,
                            const CallArgs& args);
  ir::ExprPtr make_unsqueeze(const ir::ExprPtr& value, int dim, SourceRange range);
  ir::ExprPtr make_stack(const CallArgs& args, std::string_view shown);
  // hl.split(x): the tuple of the two halves of x's last axis of 2.
  ir::ExprPtr make_split(const CallArgs& args, std::string_view shown);
  // ---- lower_joins.cpp: torch.cat and F.pad of tile values. `joined_axis` is the dimension
  // of an axis made of `parts` (operands' dims, or a value's and its padding's).
  ir::ExprPtr make_concat(const CallArgs& args, std::string_view shown);
  // The tile values of the list or tuple written out as `tensors` (torch.cat, torch.stack).
  std::vector<ir::ExprPtr> written_out_values(const CallArgs& args, std::string_view shown);
  ir::ExprPtr make_pad(const CallArgs& args, std::string_view shown);
  ir::Dim joined_axis(const std::vector<ir::Dim>& parts, std::string_view shown, int axis,
                      SourceRange range);
  // ---- lower_aranges.cpp: hl.arange and, in device code, torch.arange: (end), (start, end)
  // and a step, whose element count must name a dimension.
  ir::ExprPtr make_arange(const CallArgs& args, std::string_view shown);
  // ---- lower_sorts.cpp: sort, topk ("topk") and argsort of a tile value, the function
  // (`first` = 1: its arguments after the value) or the method (`first` = 0).
  ir::ExprPtr make_sort(std::string_view kind, const ir::ExprPtr& value, const CallArgs& args,
                        size_t first);
  // ---- lower_print.cpp: `print(...)` as a statement, in host or device code.
  void lower_print(const SyntaxNode& call, ir::Block& out);
  // Whether `callee` names Python's builtin `name`: no local, import or function of the file
  // shadows it.
  bool is_builtin(const SyntaxNode& callee, std::string_view name) const;
  ir::ExprPtr make_take_along(const CallArgs& args, std::string_view shown);
  ir::ExprPtr make_permute(const ir::ExprPtr& value, const std::vector<int>& order,
                           SourceRange range);
  // A static dimension argument of a tile op, made non-negative (`rank_extra` allows one past
  // the end, for unsqueeze).
  int dim_argument(int rank, const SyntaxNode& node, int rank_extra = 0);
  // A literal True/False argument (`keepdim=`); `message` is the error otherwise. An absent
  // argument is false.
  bool bool_argument(const SyntaxNode& node, std::string_view message);

  // ---- lower_host_ops.cpp: views (reshape, view, flatten, transpose, permute, unsqueeze,
  // squeeze, contiguous), reductions and casts of whole tensors in host code. Returns null
  // when `method` is not one of them.
  ir::ExprPtr lower_cast_method(const ir::ExprPtr& receiver, std::string_view method,
                                const CallArgs& args);
  ir::ExprPtr lower_host_index(const ir::ExprPtr& tensor, const SyntaxNode& subscript);
  ir::ExprPtr lower_stride(const ir::ExprPtr& receiver, const SyntaxNode& receiver_node,
                           const CallArgs& args);
  ir::ExprPtr lower_host_method(const ir::ExprPtr& receiver, std::string_view method,
                                const CallArgs& args);
  // `x.method(...)` for a tensor or a tile value; null when neither knows `method`.
  ir::ExprPtr lower_value_method(const ir::ExprPtr& receiver, std::string_view method,
                                 const CallArgs& args);
  // ---- lower_items.cpp: `t.item()` in host code. A name bound to it and read only in device
  // code is read in the kernel (an element load); a name host code reads is a concrete value
  // computed before the launches (kItem).
  ir::ExprPtr lower_item(const ir::ExprPtr& receiver, const CallArgs& args);
  // `s.item()` in device code: the element of a 0-d tensor (a load) or of a 0-d tile value.
  ir::ExprPtr lower_device_item(const ir::ExprPtr& receiver, const CallArgs& args);
  // `name = t.item()`: notes how device code reads `name` (when it can).
  void note_item_binding(int id, const ir::ExprPtr& value);
  // `name` read where it is bound to an item: the element load in device code, or null (the
  // host value) after noting the host read.
  ir::ExprPtr read_item_binding(int id, SourceRange range);
  // Drops the kItem lets that only device code reads, and refuses device reads of an element
  // the kernel writes (the kernel would read the value after the write).
  void finish_items();
  ir::ExprPtr make_host_view(ir::Intrinsic op, const ir::ExprPtr& tensor, ir::ExprPtr argument,
                             int rank, SourceRange range);
  // A precise error where a launch reads a tensor through one name after storing into the
  // same array through a view of it under another (the kernel would read the old values).
  void refuse_reads_through_other_views(const ir::Block& launch_body);
  // After a launch that wrote `view` (a view of another tensor), rebinds the viewed tensor to
  // the written values, so `out_flat[tile] = ...; return out` returns what was written.
  void write_back_views(const ir::Block& launch_body, ir::Block& out);
  // The same after `view` was written (by a launch or a host store): rebinds each tensor up
  // its chain of views to the written values.
  void write_back_view(int view, ir::Block& out);

  // ---- lower_host_stores.cpp: `x[idx] = value` in host code, `x = x.at[idx].set(value)`
  void lower_host_store(const SyntaxNode& target, ir::ExprPtr value, SourceRange range,
                        ir::Block& out);

  // ---- lower_returns.cpp: `return`, and the parameters a kernel updates in place
  void lower_return(const SyntaxNode& node, ir::Block& out);
  // A store into `tensor`, or a write-back `rebound` of it (kNoName: one the module cannot
  // name): where a parameter's array is now.
  void note_param_write(int tensor, int rebound = -1);
  // `y = x` (or a merge of two branches): `to` holds the same parameter's array as `from`.
  void note_same_array(int from, int to);
  // Appends the updated parameters to every return (and ends the body with one), as the
  // module's contract says: JAX arrays are immutable, so the caller gets them back.
  void return_updated_params();
  // Per tensor parameter, the binding that holds its contents here (negative when none can be
  // returned: its name now means another value, or the branches of an `if` hold it in
  // different bindings that no merge joins).
  std::map<int, int> param_contents_here() const;
  void merge_param_contents(const std::map<int, int>& then_contents,
                            const std::map<int, int>& else_contents,
                            const std::vector<ir::If::Merge>& merges);

  // ---- lower_allocations.cpp: torch.empty_like & co. on the right of `out = ...`
  bool is_allocation_call(const SyntaxNode& value) const;
  // The shape of an allocation from its first `count` positional arguments.
  ir::ExprPtr lower_alloc_sizes(const CallArgs& args, size_t count, SourceRange range);
  void lower_allocation(const SyntaxNode& target, const SyntaxNode& value, ir::Block& out);
  // `bs = hl.register_block_size(n)` (or `(lo, hi)`): a tunable shared by the loops that pass
  // `block_size=bs`, numbered where it is registered.
  void lower_register_block_size(const SyntaxNode& target, const SyntaxNode& call, ir::Block& out);
  // Sets Kernel::block_value_bindings and removes the Lets of registered block sizes whose
  // value the kernel never reads.
  void drop_unread_block_values();

  // ---- lower_tunables.cpp: `hl.register_tunable`, `hl.constexpr`, `helion.cdiv`,
  // `helion.next_power_of_2` (null when `name` is none of them)
  ir::ExprPtr lower_host_int_call(const std::string& name, const CallArgs& args);
  ir::ExprPtr lower_register_tunable(const CallArgs& args);
  int64_t int_constant(const SyntaxNode& node, std::string_view what);
  std::string known_when(const ir::ExprPtr& value) const;
  // After the body: the decorator configs' other keys that name no tunable are warned about
  // and dropped; a tunable's value is checked against its fragment.
  void check_builtin_tunable_keys();

  // ---- lower_scans.cpp: `hl.associative_scan`, `hl.reduce`, `torch.cumsum` & co. (null when
  // `name` is none of them)
  ir::ExprPtr lower_scan_call(const std::string& name, const CallArgs& args);
  // A combine function's body for `inputs`: its parameters (hidden device bindings, the left
  // elements then the right ones) and one result per input.
  struct CombineFn {
    std::vector<ir::ExprPtr> params;
    std::vector<ir::ExprPtr> results;
  };
  CombineFn lower_combine(const SyntaxNode& fn_node, const std::vector<ir::ExprPtr>& inputs,
                          std::string_view shown);
  std::vector<ir::ExprPtr> combine_inputs(const SyntaxNode& node, std::string_view shown,
                                          bool& tuple_input);
  // The axis to combine along; one the config splits into blocks is refused.
  int combine_axis(const SyntaxNode& dim, const ir::ExprPtr& input, std::string_view shown,
                   SourceRange range);

  // ---- lower_random.cpp: `hl.rand`, `hl.randint`, and `torch.rand`/`torch.rand_like` in
  // device code (null when `name` is none of them)
  ir::ExprPtr lower_random(const std::string& name, const CallArgs& args);
  ir::ExprPtr lower_implicit_random(const std::string& name, const CallArgs& args);
  // Each element's row-major position in the full extents of `dims` (Helion's counters).
  ir::ExprPtr position_counters(const std::vector<ir::Dim>& dims, SourceRange range);
  int implicit_random_calls_ = 0;  // the seed of the next `torch.rand*` call (its number)
  // The dimensions of a creation shape (`hl.zeros([tile, n])`): tiles, sizes, 1s.
  std::vector<ir::Dim> creation_dims(const std::vector<SyntaxNode>& entries);
  // The dimension a size names (size_dim: a tile, `tile.block_size`, `x.size(d)`, a number),
  // or else a computed size (a host int computed from others, interned in
  // Kernel::computed_sizes with `node`'s spelling); nullopt for other sizes.
  std::optional<ir::Dim> named_size_dim(const ir::ExprPtr& size, const SyntaxNode& node);
  // The same with the spelling given (a size helionc builds, such as a joined axis's sum).
  std::optional<ir::Dim> named_size_dim(const ir::ExprPtr& size, std::string_view spelling);
  // Computed sizes that are a registered block size (Kernel::computed_sizes index -> tunable).
  std::map<int, int> block_dims_;
  // The tunable blocks of the tile loops being lowered, innermost last.
  std::vector<int> open_tunables_;
  // `acc + x[tile_m, tile_n]` where `acc` has a registered block size's dimension
  // (`hl.zeros([tile_m, block_n])`) and `tile_n`'s loop tiles with that block: `value` (the
  // tile side) takes that dimension, its lanes past the loop's range zeros, as Helion's masked
  // loads read them.
  void adopt_block_dims(ir::ExprPtr& value, const ir::ExprPtr& other, SourceRange range);
  // The size of a dimension as a device expression (`tile.block_size`, `x.size(d)`, 1).
  ir::ExprPtr dim_size(const ir::Dim& dim, SourceRange range) const;

  // ---- lower_atomics.cpp: `hl.atomic_add` & co., a statement or the right of an assignment
  bool is_atomic_call(const SyntaxNode& node) const;
  // Appends the read-modify-write to `out`; the call's value (the old block) when used.
  ir::ExprPtr lower_atomic(const SyntaxNode& call, bool value_used, ir::Block& out);

  // ---- lower_subscripts.cpp (with lower_hl_load/lower_hl_store above)
  ir::Index lower_index(int tensor, const SyntaxNode& subscript_node, std::vector<ir::Dim>* dims);

  // ---- lower_tensor_slices.cpp: `x[tile, 16:]`, the entry for one slice of axis `axis` of
  // `tensor` (kFull when it has no bounds)
  // (also `slice(a, b)` in `hl.load`/`hl.store` index lists: is_slice_call)
  ir::IndexItem lower_tensor_slice(int tensor, int axis, const SyntaxNode& slice);
  bool is_slice_call(const SyntaxNode& item) const;

  // ---- lower_tiles.cpp
  void lower_for(const SyntaxNode& node, ir::Block& out);
  std::vector<int> lower_tile_spec(const SyntaxNode& call, bool grid);
  // The index of a grid dimension with a step (grid_steps_) at the step it counts: `begin +
  // count * step`; `count` itself for the other dimensions.
  ir::ExprPtr stepped_index(int dim, ir::ExprPtr count, SourceRange range) const;
  int new_tile_dim(std::string name, ir::ExprPtr begin, ir::ExprPtr end, ir::BlockSource block,
                   bool variadic, SourceRange range);
  void name_tile_dims(const SyntaxNode& target, const std::vector<int>& dims);

  // ---- lower_jagged_tiles.cpp: `hl.jagged_tile(lengths)`, a loop to the longest row of the
  // enclosing block with each row masked past its own length
  std::vector<int> lower_jagged_tile_spec(const SyntaxNode& call);
  // `tile_k.index < lengths` laid out along `dims` (which must hold the lengths' tiles).
  ir::ExprPtr jagged_mask(const std::vector<ir::Dim>& dims, int jagged_dim, SourceRange range);
  std::vector<int> jagged_dims_of(const std::vector<ir::Dim>& dims) const;
  // A load reads 0 past each row's length; a store keeps the old elements there; a sum, prod,
  // amax or amin along a jagged axis reduces each row's own elements only (others: refused).
  ir::ExprPtr mask_jagged_load(ir::ExprPtr load);
  ir::ExprPtr mask_jagged_store(const ir::ExprPtr& tensor, const ir::Index& index,
                                const std::vector<ir::Dim>& dims, ir::ExprPtr value,
                                SourceRange range);
  ir::ExprPtr mask_jagged_reduction(ir::Intrinsic op, ir::ExprPtr value, int axis,
                                    SourceRange range);
  // `for a, b in hl.tile(x.size())`: x's rank, when it is not known yet, is `rank`.
  void state_rank_of_tiled_shape(const SyntaxNode& call, size_t rank, SourceRange evidence);

  // ---- lower_inner_loops.cpp
  // Before an inner loop's body: a `phi` binding for every device value the body rebinds.
  std::vector<ir::TileLoop::Carry> open_carries(const SyntaxNode& body, SourceRange loop_range);
  // After it: each carry's `next` (checked against its type before the loop) and `result`.
  void close_carries(std::vector<ir::TileLoop::Carry>& carries, SourceRange loop_range);
  // A loop's body, lowered in device code: the names it rebinds carried when `carried` is
  // given (inner loops), and every binding from `first_binding` on closed at the loop's end.
  ir::Block lower_loop_body(const SyntaxNode& loop, size_t first_binding,
                            std::vector<ir::TileLoop::Carry>* carried);
  // `for i in hl.static_range(...)` or `range(...)` in device code (unrolled while JAX
  // traces); `shown` names the callee in messages.
  void lower_static_range(const SyntaxNode& node, ir::Block& out, std::string_view shown);
  // The bounds of `range(end)`, `range(begin, end)` or `range(begin, end, step)` (`call`; `shown`
  // names the callee), lowered in order with the defaults 0 and 1 filled in; `check` sees each
  // bound the source writes, as it is lowered.
  struct RangeBounds {
    ir::ExprPtr begin, end, step;
  };
  RangeBounds lower_range_bounds(
      const SyntaxNode& call, std::string_view shown,
      const std::function<void(const SyntaxNode& arg, const ir::ExprPtr& bound)>& check);
  // `for x in [a, b]` / `(a, b)` in device code: the body once per element.
  void lower_unrolled_for(const SyntaxNode& node, ir::Block& out);
  // Whether a device-code `for` over `iterable` is unrolled by lower_unrolled_for.
  bool unrolled_iterable(const SyntaxNode& iterable);
  // Whether a carried value's shape after the body (`end`) may stand for the one before it
  // (`start`); adds the trace-time checks of the axes that must then have equal lengths.
  bool carried_axes_agree(const std::string& name, const std::vector<ir::Dim>& start,
                          const std::vector<ir::Dim>& end, SourceRange range);
  // `[tile_m, tile_n] float32`, for messages about carried values.
  std::string describe(const ir::Type& type) const;

  const KernelSyntax& syntax_;
  const ImportTable& imports_;
  // The names the code being lowered sees around it: the kernel's scopes, or an inlined
  // helper's while its body is lowered.
  const ModuleConstants* constants_;
  static constexpr int kMaxConstantDepth = 64;  // `A = B`, `B = C`, ... chains
  int constant_depth_ = 0;
  DiagnosticEngine& diags_;
  const SourceFile& file_;
  ir::Kernel kernel_;
  std::map<std::string, int, std::less<>> scope_;  // Python name -> current binding
  // The packs: the parameters' (Kernel::packs, at the same indices), then those the body
  // builds (`scaled = [t * 2 for t in xs]`: host values, never parameters).
  std::vector<ir::ParamPack> packs_;
  std::map<std::string, int, std::less<>> pack_names_;  // names of packs -> packs_ index
  std::map<int, SourceRange> closed_;                   // device bindings whose loop has ended
  // Host views: view binding -> (viewed binding, the view expression).
  std::map<int, std::pair<int, ir::ExprPtr>> views_;
  // Host bindings of `x[...]` (lower_host_index): copies in the module, never stored into.
  std::map<int, ir::ExprPtr> host_indexed_;
  // Tensor bindings that name one array under two names (`y = x`), both ways: a host store
  // rebinds one name only, so it is refused while the other still names the array.
  std::multimap<int, int> shared_arrays_;
  // Names bound to `t.item()` that device code may read in the kernel -> the tensor (a VarRef)
  // and the element's index (host ints); the subset host code reads.
  struct ItemRead {
    ir::ExprPtr tensor;
    std::vector<ir::ExprPtr> index;
    SourceRange call;  // `t[0].item()`
  };
  std::map<int, ItemRead> item_reads_;
  std::set<int> host_read_items_;
  std::map<int, std::pair<int, SourceRange>> device_read_items_;  // tensor -> (name, a read)
  // Bindings made by hl.register_block_size -> their tunable index.
  std::map<int, int> registered_block_sizes_;
  std::set<int> read_block_values_;  // those of them read as values (lower_identifier)
  // Host ints bound to an expression (`n = x.size(1)`): what a shape entry `n` stands for.
  std::map<int, ir::ExprPtr> jagged_lengths_;  // jagged tile dim -> its lengths tile
  std::map<int, ir::ExprPtr> host_sizes_;
  // Implied checks of literal sizes (lower_literal_sizes.cpp) waiting for their launch, and
  // the (tensor, axis, size) triples already checked.
  std::vector<ir::StmtPtr> pending_size_checks_;
  // Lists unpacking shapes of unknown rank -> where each `*` is (lower_shape_splats.cpp).
  std::map<const ir::Expr*, std::vector<SourceRange>> deferred_splats_;
  // The tunable that `hl.grid(x.size())` loops run under as tiles (lower_tiles.cpp), or -1.
  int variadic_grid_tunable_ = -1;
  // `out = torch.empty(...).view(-1)`: where the allocation call is and the binding
  // lower_assignment allocated for it, which the call then reads as (lower_calls.cpp).
  std::optional<std::pair<SourceRange, int>> chained_allocation_;
  // Grid dimensions with a step other than 1 -> (begin or null, step): the dimension counts
  // steps from 0, and the loop's index is `begin + count * step` (lower_tiles.cpp).
  std::map<int, std::pair<ir::ExprPtr, ir::ExprPtr>> grid_steps_;
  // Device ints and tile attributes bound to names (`live = outer.end - outer.begin`,
  // `rows = local.index`), for windows' bounds.
  std::map<int, ir::ExprPtr> device_ints_;
  std::set<std::string> required_sizes_;  // the checks added, by their message and operator
  // In-place updates: binding -> the tensor parameter whose array it holds (the parameter
  // itself, `y = x`, a write-back of a view); parameter -> the binding that holds its latest
  // contents, or -1 when branches disagree; the parameters written; per return, the latter
  // as it was there.
  std::map<int, int> holds_param_;
  std::map<int, int> param_contents_;
  std::set<int> updated_params_;
  std::map<const ir::Stmt*, std::map<int, int>> return_contents_;
  std::map<int, int> rebound_names_;     // parameter -> the binding that took its name
  std::map<int, std::string> poisoned_;  // bindings that must not be used (message, or "" to
                                         // stay quiet after an error already reported)
  // Callable parameters: binding -> its lambda default. Lambda bodies being inlined, innermost
  // last: the callable's name and its parameters bound to the call's arguments.
  std::map<int, SyntaxNode> lambdas_;
  std::set<int> runtime_callables_;  // callable parameters without a default (lower_callables)
  struct LambdaFrame {
    std::string callable;
    SourceRange call;
    std::map<std::string, ir::ExprPtr, std::less<>> arguments;
    // A helper function's body (lower_helpers.cpp), which sees the names of its own scopes.
    SyntaxNode helper{};
  };
  std::vector<LambdaFrame> lambda_frames_;
  std::vector<ComprehensionNames> comprehension_frames_;  // innermost comprehension last
  std::map<int, ir::ExprPtr> known_sequences_;            // binding -> the list it was bound to
  std::map<std::string, KnownDict, std::less<>> known_dicts_;  // name -> its entries
  int device_depth_ = 0;
  bool variadic_tunable_seen_ = false;
  bool failed_ = false;
};

}  // namespace helionc::frontend
