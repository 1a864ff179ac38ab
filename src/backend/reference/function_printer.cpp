#include "backend/reference/function_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "backend/pallas/names.h"
#include "backend/pallas/pack_params.h"
#include "backend/reference/expr_writer.h"
#include "backend/reference/function_state.h"
#include "backend/reference/reference_module.h"
#include "ir/visitor.h"
#include "support/python_writer.h"
#include "support/quote.h"

namespace helionc::backend::reference {

std::string FunctionState::name(int binding) const {
  return pallas::safe_local_name(kernel.bindings.at(binding).name);
}

std::string FunctionState::tile(int tile_dim, SourceRange range) {
  const auto found = tiles.find(tile_dim);
  if (found != tiles.end()) return found->second;
  refuse(range, fmt::format("a use of tile `{}` outside its loop", dim(tile_dim).name));
  return "None";
}

std::string FunctionState::where(const SourceRange& range) const {
  if (!range.valid()) return "";
  return fmt::format("{}:{}", source_path, range.file->line_column(range.begin).line);
}

std::string FunctionState::with_where(std::string text, const SourceRange& range) const {
  const std::string place = where(range);
  if (place.empty()) return text;
  return fmt::format("{}  # {}", text, one_line_text(place));
}

namespace {

bool is_number(const ir::ExprPtr& expr, double value) {
  if (const auto* i = expr->as<ir::IntImm>()) return static_cast<double>(i->value) == value;
  if (const auto* f = expr->as<ir::FloatImm>()) return f->value == value;
  return false;
}

// Whether `value` is known to have the dtype of arrays of `type`: both dtypes known and equal, or
// `value` cast to the dtype of the very array stored into (`acc.to(out.dtype)`).
bool has_dtype_of(const ir::ExprPtr& value, const ir::ExprPtr& tensor) {
  if (value->type.dtype && tensor->type.dtype) return *value->type.dtype == *tensor->type.dtype;
  const auto* cast = value->as<ir::Call>();
  if (cast == nullptr || cast->op != ir::Intrinsic::kCast) return false;
  const auto* dtype_of = cast->args[1]->as<ir::Call>();
  if (dtype_of == nullptr || dtype_of->op != ir::Intrinsic::kDtypeOf) return false;
  const auto* of = dtype_of->args[0]->as<ir::VarRef>();
  const auto* stored = tensor->as<ir::VarRef>();
  return of != nullptr && stored != nullptr && of->binding == stored->binding;
}

class FunctionPrinter {
 public:
  FunctionPrinter(const ir::Kernel& kernel, const std::string& source_path)
      : state_{kernel, source_path, {}, false, false, std::nullopt}, expr_(state_) {
    // Tile locals take their loop variable's name; other tiles get fresh names that no binding
    // uses.
    for (const ir::Binding& binding : kernel.bindings)
      used_.insert(pallas::safe_local_name(binding.name));
    for (const ir::ParamPack& pack : kernel.packs) used_.insert(pallas::safe_local_name(pack.name));
  }

  PrintedFunction print() {
    const ir::Kernel& kernel = state_.kernel;
    std::vector<std::string> params;
    const auto name_of = [&](int binding) { return state_.name(binding); };
    for (const ir::Param& param : kernel.params) {
      std::optional<std::string> text = pallas::signature_name(kernel, param, name_of);
      if (!text) continue;  // an element of a pack, after its first
      if (param.default_value) *text += "=" + expr_.text(param.default_value);
      params.push_back(std::move(*text));
    }
    {
      auto body = out_.block(
          fmt::format("def {}({}):", reference_function_name(kernel), fmt::join(params, ", ")));
      // A kernel without tiles (no device loop) is host code alone: nothing spans a loop.
      out_.line(fmt::format("\"\"\"`{}` in plain jnp: {}.\"\"\"", kernel.name,
                            kernel.tile_dims.empty() ? "host code only, it has no tiles"
                                                     : "a tunable tile spans its loop"));
      for (const std::string& line : pallas::unpack_packs(kernel, name_of)) out_.line(line);
      block(kernel.body);
    }
    PrintedFunction printed;
    printed.math = state_.math;
    printed.callables = state_.callables;
    printed.refusal = state_.refusal;
    if (!printed.refusal) printed.text = out_.str();
    return printed;
  }

 private:
  void block(const ir::Block& stmts) {
    for (const ir::StmtPtr& stmt : stmts) statement(*stmt);
  }

  void line(std::string text, const ir::Stmt& stmt) {
    out_.line(state_.with_where(std::move(text), stmt.range));
  }

  void statement(const ir::Stmt& stmt) {
    switch (stmt.kind) {
      case ir::StmtKind::kLet: {
        const auto& let = *stmt.as<ir::Let>();
        if (let.targets.empty()) {  // a statement for its effect (`print`)
          line(expr_.text(let.value), stmt);
          return;
        }
        std::vector<std::string> names;
        for (int target : let.targets) names.push_back(state_.name(target));
        std::string targets = fmt::format("{}", fmt::join(names, ", "));
        if (let.unpack && names.size() == 1) targets = fmt::format("({},)", names[0]);
        line(fmt::format("{} = {}", targets, expr_.text(let.value)), stmt);
        return;
      }
      case ir::StmtKind::kAlloc:
        alloc(*stmt.as<ir::Alloc>());
        return;
      case ir::StmtKind::kStore:
        store(*stmt.as<ir::Store>());
        return;
      case ir::StmtKind::kTileLoop:
        tile_loop(*stmt.as<ir::TileLoop>());
        return;
      case ir::StmtKind::kStaticLoop: {
        const auto& loop = *stmt.as<ir::StaticLoop>();
        auto body = out_.block(state_.with_where(
            fmt::format("for {} in range({}, {}, {}):", state_.name(loop.var),
                        expr_.text(loop.begin), expr_.text(loop.end), expr_.text(loop.step)),
            stmt.range));
        block(loop.body);
        return;
      }
      case ir::StmtKind::kIf: {
        const auto& branch = *stmt.as<ir::If>();
        if (branch.on_device) return guarded_branches(branch);
        {
          auto then_block = out_.block(
              state_.with_where(fmt::format("if {}:", expr_.text(branch.condition)), stmt.range));
          block(branch.then_body);
        }
        if (!branch.else_body.empty()) {
          auto else_block = out_.block("else:");
          block(branch.else_body);
        }
        return;
      }
      case ir::StmtKind::kAssert:
        assertion(*stmt.as<ir::Assert>());
        return;
      case ir::StmtKind::kReturn: {
        const auto& node = *stmt.as<ir::Return>();
        std::vector<std::string> values;
        for (const ir::ExprPtr& value : node.values) values.push_back(expr_.text(value));
        if (values.empty()) {
          line(node.tuple ? "return ()" : "return", stmt);
        } else if (node.tuple && values.size() == 1) {
          line(fmt::format("return ({},)", values[0]), stmt);  // `return (out,)`
        } else {
          line(fmt::format("return {}", fmt::join(values, ", ")), stmt);
        }
        return;
      }
    }
    state_.refuse(stmt.range, "this statement");
  }

  void alloc(const ir::Alloc& alloc) {
    const std::string name = state_.name(alloc.target);
    const std::string shape = expr_.text(alloc.shape);
    const std::string dtype = expr_.text(alloc.dtype);
    std::string value;
    if (!alloc.fill) {
      value = fmt::format("jnp.empty({}, {})", shape, dtype);  // zeros in JAX
    } else if (is_number(alloc.fill, 0)) {
      value = fmt::format("jnp.zeros({}, {})", shape, dtype);
    } else if (is_number(alloc.fill, 1)) {
      value = fmt::format("jnp.ones({}, {})", shape, dtype);
    } else {
      value = fmt::format("jnp.full({}, {}, {})", shape, expr_.text(alloc.fill), dtype);
    }
    line(fmt::format("{} = {}", name, value), alloc);
  }

  // `out[index] = value`: the array's name is rebound to the updated array, the value cast to
  // its dtype as Helion's stores do. A scatter-add (ir::Store::accumulate) is `.at[...].add`,
  // which adds every element, also those whose indices repeat.
  void store(const ir::Store& store) {
    const std::string tensor = expr_.text(store.tensor);
    const std::string subscript = expr_.store_subscript(store);
    const pallas::PyExpr value = expr_.print(store.value);
    std::string cast = value.text;
    if (store.value->type.is_array() && !has_dtype_of(store.value, store.tensor)) {
      cast = fmt::format("{}.astype({}.dtype)", pallas::py_primary(value), tensor);
    }
    line(fmt::format("{} = {}.at{}.{}({})", tensor, tensor, subscript,
                     store.accumulate ? "add" : "set", cast),
         store);
  }

  // A tile loop in the reference. The configs choose tunable block sizes, so a tunable
  // dimension is one step whose tile is the loop's whole range; a block size the source fixes
  // (`block_size=128`) is part of the kernel's meaning, so a fixed dimension is a Python loop
  // over tiles of that size (the last one partial); an `hl.grid` dimension is a Python loop over
  // its ints. Carried values need nothing: every binding of a carried name is the same Python
  // name.
  void tile_loop(const ir::TileLoop& loop) {
    // The loop variable of each dimension, when one variable stands for exactly it.
    std::map<int, int> var_of;
    for (size_t i = 0; i < loop.loop_vars.size(); ++i) {
      const int var = loop.loop_vars[i];
      const ir::Type& type = state_.kernel.bindings.at(var).type;
      if (type.kind == ir::TypeKind::kTile && type.tile_dims.size() == 1) {
        var_of[type.tile_dims[0]] = var;
      } else if (type.kind == ir::TypeKind::kInt &&
                 loop.loop_vars.size() == loop.tile_dims.size()) {
        var_of[loop.tile_dims[i]] = var;  // an `hl.grid` index
      }
    }
    std::vector<PythonWriter::Block> loops;
    std::vector<std::string> whole;  // the tiles of whole ranges, which may be empty
    bool maybe_empty = false;
    for (int dim_id : loop.tile_dims) {
      const ir::TileDim& dim = state_.dim(dim_id);
      const auto var = var_of.find(dim_id);
      if (state_.is_grid(dim_id) && var == var_of.end()) {
        state_.refuse(loop.range, "an `hl.grid` loop whose variable stands for several dimensions");
        return;
      }
      const std::string name =
          var != var_of.end() ? state_.name(var->second) : fresh(pallas::safe_local_name(dim.name));
      // A bound read from a tensor (`offsets[g]`) becomes a Python int: the reference's tiles
      // are slices of static length, so it runs eagerly, not under jax.jit (README).
      auto bound = [&](const ir::ExprPtr& expr) {
        const std::string text = expr_.text(expr);
        return expr->type.kind == ir::TypeKind::kTileTensor ? fmt::format("int({})", text) : text;
      };
      const std::string begin = dim.begin ? bound(dim.begin) : "0";
      const std::string end = bound(dim.extent);
      state_.tiles[dim_id] = name;
      if (state_.is_grid(dim_id)) {
        const std::string range =
            dim.begin ? fmt::format("range({}, {})", begin, end) : fmt::format("range({})", end);
        loops.push_back(
            out_.block(state_.with_where(fmt::format("for {} in {}:", name, range), loop.range)));
      } else if (dim.variadic) {
        if (dim.block.kind == ir::BlockSource::Kind::kFixed) {
          state_.refuse(loop.range, "a fixed block size on a tile of `hl.tile(x.size())`");
          return;
        }
        line(fmt::format("{} = _RefTiles({})", name, end), loop);
      } else if (dim.paired_with >= 0 && !state_.stepped_block(dim)) {
        // Row r of one block meets row r of the other (frontend/lower_paired_tiles.cpp), so the
        // result depends on the block, which only the config gives.
        state_.refuse(loop.range,
                      fmt::format("the tiles of `{}` paired row by row with those of `{}` under a "
                                  "block size the config tunes (the result depends on it; fix "
                                  "it in the source, `block_size=`, for a reference)",
                                  dim.name, state_.dim(dim.paired_with).name));
        return;
      } else if (const ir::ExprPtr block = state_.stepped_block(dim)) {
        loops.push_back(out_.block(state_.with_where(
            fmt::format("for {} in _ref_tiles({}, {}, {}):", name, begin, end, expr_.text(block)),
            loop.range)));
      } else {
        line(fmt::format("{} = _RefTile({}, {})", name, begin, end), loop);
        whole.push_back(name);
        maybe_empty |= ir::has_begin(dim) || ir::bounds_in_kernel(state_.kernel, dim);
      }
    }
    // A whole range that may be empty (`hl.tile(0, tile_m.begin)` on the first rows) runs no
    // step, and the carried values keep their initial values.
    if (maybe_empty) {
      std::vector<std::string> sizes;
      for (const std::string& tile : whole) sizes.push_back(tile + ".block_size > 0");
      auto guarded = out_.block(fmt::format("if {}:", fmt::join(sizes, " and ")));
      block(loop.body);
    } else {
      block(loop.body);
    }
    while (!loops.empty()) loops.pop_back();  // closes the innermost first
    for (int dim_id : loop.tile_dims) state_.tiles.erase(dim_id);
  }

  void assertion(const ir::Assert& check) {
    auto raise = out_.block(state_.with_where(
        fmt::format("if {}:", pallas::py_unary("not", expr_.print(check.condition)).text),
        check.range));
    if (check.implied) {
      const auto& equal = *check.condition->as<ir::Compare>();
      const SourceFile& file = *check.range.file;
      out_.line(
          fmt::format("raise ValueError({} + {} + str({}))",
                      pallas::py_string(fmt::format("{}:{}: ", state_.source_path,
                                                    file.line_column(check.range.begin).line)),
                      expr_.text(check.message), expr_.text(equal.lhs)));
      return;
    }
    std::string where = pallas::py_string("assert failed");
    if (check.range.valid()) {
      const SourceFile& file = *check.range.file;
      where = pallas::py_string(fmt::format("{}:{}: assert {} failed", state_.source_path,
                                            file.line_column(check.range.begin).line,
                                            file.text_of(check.condition->range)));
    }
    out_.line(check.message ? fmt::format("raise AssertionError({} + \": \" + {})", where,
                                          expr_.text(check.message))
                            : fmt::format("raise AssertionError({})", where));
  }

  // An `if` on a device value (ir::If::on_device): the reference runs both branches and keeps,
  // of each array they store into, the version of the branch the condition picks (its
  // branches bind no name used after the `if`, so nothing else needs choosing).
  void guarded_branches(const ir::If& branch) {
    struct StoredArrays final : ir::Visitor {
      std::vector<const ir::Store*> stores;
      void visit_node(const ir::Store& node) override { stores.push_back(&node); }
    } found;
    found.visit(branch.then_body);
    found.visit(branch.else_body);
    std::vector<std::string> stored;
    for (const ir::Store* store : found.stores) {
      const std::string array = expr_.text(store->tensor);
      if (std::find(stored.begin(), stored.end(), array) == stored.end()) stored.push_back(array);
    }
    const std::string taken = fresh("_taken");
    line(fmt::format("{} = {}", taken, expr_.text(branch.condition)), branch);
    std::vector<std::string> before;
    std::vector<std::string> then_values;
    for (const std::string& array : stored) {
      before.push_back(fresh(array + "_before"));
      then_values.push_back(fresh(array + "_then"));
      out_.line(fmt::format("{} = {}", before.back(), array));
    }
    block(branch.then_body);
    for (size_t i = 0; i < stored.size(); ++i) {
      out_.line(fmt::format("{} = {}", then_values[i], stored[i]));
      out_.line(fmt::format("{} = {}", stored[i], before[i]));
    }
    block(branch.else_body);
    for (size_t i = 0; i < stored.size(); ++i) {
      out_.line(
          fmt::format("{} = jnp.where({}, {}, {})", stored[i], taken, then_values[i], stored[i]));
    }
  }

  std::string fresh(const std::string& base) {
    std::string name = base;
    for (int n = 2; used_.count(name) > 0 || pallas::is_reserved_module_name(name); ++n) {
      name = fmt::format("{}{}", base, n);
    }
    used_.insert(name);
    return name;
  }

  FunctionState state_;
  ExprWriter expr_;
  PythonWriter out_;
  std::set<std::string> used_;
};

}  // namespace

PrintedFunction print_reference_function(const ir::Kernel& kernel, const std::string& source_path) {
  return FunctionPrinter(kernel, source_path).print();
}

}  // namespace helionc::backend::reference
