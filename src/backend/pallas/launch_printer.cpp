#include "backend/pallas/launch_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "autotune/targets.h"
#include "backend/pallas/size_formula.h"
#include "ir/visitor.h"
#include "passes/kept_blocks.h"
#include "passes/legal_block.h"
#include "passes/vmem_fallback.h"
#include "passes/vmem_formula.h"

namespace helionc::backend::pallas {

namespace {

using passes::Input;
using passes::Launch;
using passes::Operand;
using passes::ViewAxis;

// In an index map, an hl.grid loop variable is the lambda's grid index (plus the loop's start).
class IndexMapContext final : public HostContext {
 public:
  IndexMapContext(const ir::Kernel& kernel, DiagnosticEngine& diags, const Launch& launch,
                  HostState& host)
      : HostContext(kernel, diags), kernel_(kernel), host_(host) {
    const ir::TileLoop& loop = launch.tile_loop();
    for (size_t i = 0; i < loop.loop_vars.size() && i < loop.tile_dims.size(); ++i) {
      grid_var_dim_[loop.loop_vars[i]] = loop.tile_dims[i];
    }
    for (size_t g = 0; g < launch.grid.size(); ++g) {
      if (launch.grid[g].inner_loop < 0) own_dims_[launch.grid[g].tile_dim] = g;
    }
  }

  PyExpr var(const ir::VarRef& ref) override {
    auto it = grid_var_dim_.find(ref.binding);
    if (it == grid_var_dim_.end()) return HostContext::var(ref);
    const ir::TileDim& dim = kernel_.tile_dims[it->second];
    PyExpr index = py_atom(safe_local_name(dim.name));
    if (has_begin(dim)) index = py_binary("+", host_.expr(dim.begin), index);
    return index;
  }

  // `tile_b.begin` and `tile_b.id` of the launch's own tiles as scalar indices (`out[tile_b.begin,
  // tile_n]`): the block number times the block size, and the block number (`block_blocks`
  // gives the launch printer's block-size names, known once the blocks are chosen).
  std::optional<PyExpr> tile_attr(const ir::TileAttr& attr) override {
    if (attr.attr != ir::TileAttrKind::kBegin && attr.attr != ir::TileAttrKind::kId) {
      return std::nullopt;
    }
    const ir::TileDim& dim = kernel_.tile_dims[attr.tile_dim];
    auto own = own_dims_.find(attr.tile_dim);
    if (own == own_dims_.end() || has_begin(dim) || !block_of_) return std::nullopt;
    PyExpr index = py_atom(safe_local_name(dim.name));
    if (attr.attr == ir::TileAttrKind::kId) return index;
    return py_binary("*", index, py_atom(block_of_(own->second)));
  }

  void set_block_names(std::function<std::string(size_t)> block_of) {
    block_of_ = std::move(block_of);
  }

 private:
  const ir::Kernel& kernel_;
  HostState& host_;
  std::map<int, int> grid_var_dim_;
  std::map<int, size_t> own_dims_;  // tile dimension of the launch's own loop -> grid axis
  std::function<std::string(size_t)> block_of_;
};

bool is_grid(const ir::TileDim& dim) { return dim.block.kind == ir::BlockSource::Kind::kGrid; }

PyExpr product(int64_t count, const std::vector<PyExpr>& factors) {
  std::vector<PyExpr> parts;
  if (count != 1 || factors.empty()) parts.push_back(py_atom(std::to_string(count)));
  parts.insert(parts.end(), factors.begin(), factors.end());
  PyExpr result = parts.front();
  for (size_t i = 1; i < parts.size(); ++i) result = py_binary("*", result, parts[i]);
  return result;
}

std::string sum(const std::vector<PyExpr>& terms) {
  if (terms.empty()) return "0";
  PyExpr result = terms.front();
  for (size_t i = 1; i < terms.size(); ++i) result = py_binary("+", result, terms[i]);
  return result.text;
}

class LaunchPrinter {
 public:
  LaunchPrinter(PythonWriter& out, HostState& host, const Launch& launch, const LaunchNames& names,
                size_t stmt_index, const std::string& config, size_t launches)
      : out_(out),
        host_(host),
        kernel_(host.kernel),
        launch_(launch),
        names_(names),
        stmt_index_(stmt_index),
        config_(config),
        launches_(launches),
        index_context_(host.kernel, host.context.diags, launch, host),
        index_exprs_(host.kernel, index_context_, host.context.imports, host.context.diags) {
    for (const LoopTypes& types : names.variants) {
      schedules_.push_back(passes::find_schedule(kernel_, launch, types));
    }
    schedule_ = &schedules_.front();
    index_context_.set_block_names([this](size_t g) { return blocks_.at(g); });
  }

  void print() {
    const ir::TileLoop& loop = launch_.tile_loop();
    const std::string place = host_.context.where(loop.range);
    if (!place.empty()) {
      out_.comment(fmt::format("{}: {}", place, host_.context.source_line(loop.range)));
    }
    for (const passes::GridDim& grid : launch_.grid) {
      const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
      const bool in_kernel = ir::bounds_in_kernel(kernel_, dim);
      in_kernel_bounds_.push_back(in_kernel);
      if (in_kernel) {
        // An inner loop over part of an axis that moves with the outer tile: on the host, its
        // size is the axis's (the loop never runs `unroll`'s resident block past it).
        sizes_.push_back(size_expr(grid.size_binding, grid.size_axis));
      } else {
        sizes_.push_back(has_begin(dim)
                             ? py_binary("-", host_.expr(dim.extent), host_.expr(dim.begin))
                             : host_.expr(dim.extent));
      }
      grid_params_.push_back(safe_local_name(dim.name));
    }
    if (launch_.variadic) {
      print_any_rank_tiling();
      print_vmem_fallback();
    } else {
      name_blocks();
      print_vmem_fallback();
      print_blocks();
      print_gather_plans();
    }
    if (!names_.loop_order.empty()) {
      host_.context.imports.helpers.insert("loop_order");
      order_ = host_.local("grid_order");
      std::vector<std::string> default_order;
      for (int64_t d : passes::default_grid_order(launch_))
        default_order.push_back(std::to_string(d));
      out_.line(fmt::format("{} = _loop_order({}, {}, {})", order_, config_,
                            names_.loop_order_entry, py_tuple(default_order)));
    }
    if (names_.variants.size() == 1) {
      print_call(0);
      return;
    }
    // One kernel per combination of inner-loop strategies the configs use.
    const size_t first = names_.first_loop;
    const size_t count = launch_.inner_loops.size();
    const std::string selected =
        count == 1 ? fmt::format("{}[\"pallas_loop_type\"][{}]", config_, first)
                   : fmt::format("{}[\"pallas_loop_type\"][{}:{}]", config_, first, first + count);
    for (size_t v = 0; v < names_.variants.size(); ++v) {
      const LoopTypes& types = names_.variants[v];
      const std::string wanted =
          count == 1 ? py_string(std::string(passes::loop_strategy_name(types.front())))
                     : KernelLoopTypes::python_tuple(types);
      auto branch =
          out_.block(v + 1 == names_.variants.size()
                         ? std::string("else:")
                         : fmt::format("{} {} == {}:", v == 0 ? "if" : "elif", selected, wanted));
      print_call(v);
    }
  }

 private:
  // ---- block sizes and grid --------------------------------------------------------------

  std::string requested_block(const ir::TileDim& dim, bool rest) {
    if (const int value = kernel_.block_value_binding(dim.block.tunable);
        value >= 0 && dim.block.kind == ir::BlockSource::Kind::kTunable) {
      // A registered block size the kernel reads: the value computed where it is registered.
      const std::string name = host_.text(
          ir::VarRef::make(value, kernel_.bindings[static_cast<size_t>(value)].type, dim.range));
      return rest ? py_tuple({name}) : name;
    }
    if (dim.block.kind == ir::BlockSource::Kind::kFixed) {
      const std::string size = host_.text(dim.block.size);
      return rest ? py_tuple({size}) : size;
    }
    const std::string sizes = fmt::format("{}[\"block_sizes\"]", config_);
    if (!rest) return fmt::format("{}[{}]", sizes, dim.block.tunable);
    return dim.block.tunable == 0 ? sizes : fmt::format("{}[{}:]", sizes, dim.block.tunable);
  }

  // Names each grid axis's block and the `_legal_block(...)` call that computes it from the
  // config (empty for `hl.grid` axes); print_blocks prints the assignments, after the VMEM check
  // (which may halve blocks) has settled the config.
  void name_blocks() {
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      const passes::GridDim& grid = launch_.grid[g];
      const ir::TileDim& dim = kernel_.tile_dims[grid.tile_dim];
      if (is_grid(dim)) {
        blocks_.emplace_back();
        legal_blocks_.emplace_back();
        continue;
      }
      blocks_.push_back(host_.local(block_name(dim.name)));
      const std::string_view role = grid.flat ? "flat" : passes::axis_role_name(grid.role);
      // A loop over part of an axis gets blocks that are legal for the array's axis.
      const std::string size = (grid.partial || in_kernel_bounds_[g]) && grid.size_binding >= 0
                                   ? host_.size_text(grid.size_binding, grid.size_axis, stmt_index_)
                                   : sizes_[g].text;
      const std::string other = whole_elements(grid);
      std::vector<std::string> axes;  // lengths that may differ: the block must suit each
      if (grid.partial) {
        for (const auto& [binding, axis] : passes::differing_axes(host_.facts, launch_, grid)) {
          axes.push_back(host_.size_text(binding, axis, stmt_index_));
        }
      }
      const std::vector<std::string> dtypes =
          packed_dtypes(passes::sublane_bindings(launch_, grid));
      std::string kept;      // `_kept_block`'s first argument: the loop, and why it keeps its block
      std::string keywords;  // and its last: where Helion's blocks start, whether the block
                             // itself is read as a number
      if (passes::keeps_requested_block(kernel_, dim)) {
        host_.context.imports.helpers.insert("kept_block");
        kept = py_string(kept_reason(dim)) + ", ";
      }
      // A paired loop's blocks start at its begin already (GridDim::from_begin).
      if (passes::observes_block_positions(kernel_, dim) && dim.paired_with < 0) {
        if (has_begin(dim) && in_kernel_bounds_[g] && !dim.merged) {  // 1 divides any begin
          // The module's blocks start at multiples of the block; Helion's at the loop's begin,
          // which here is known only while the kernel runs.
          host_.context.diags.error(
              DiagnosticKind::kUnsupported, dim.range,
              "a loop whose begin is computed in the kernel and whose block numbers "
              "(`tile.id`, `tile.count`, a scalar index made from `tile.begin` or `tile.end`) "
              "or registered block size the kernel reads is not supported yet");
        } else if (has_begin(dim)) {
          keywords = ", begin=" + host_.text(dim.begin);
        }
      }
      if (passes::reads_block_value(kernel_, dim)) keywords += ", exact=True";
      if (dim.window_rows > 0 && kept.empty()) {
        keywords += fmt::format(", rows={}", dim.window_rows);  // ir::TileDim::window_rows
      }
      std::string requested = requested_block(dim, false);
      if (dim.grouped > 0 && grid.role == passes::AxisRole::kLeading && !grid.flat) {
        // A view groups the block (ir::TileDim::grouped): the default of 1 would not hold a group.
        requested = fmt::format("({} or {})", requested, dim.grouped);
      }
      legal_blocks_.push_back(
          fmt::format("{}({}{}, {}, \"{}\"{}{}{}{})", kept.empty() ? "_legal_block" : "_kept_block",
                      kept, requested, size, role, other.empty() ? "" : ", " + other,
                      axes.empty() ? "" : ", axes=" + py_tuple(axes),
                      dtypes.empty() ? "" : ", dtypes=" + py_tuple(dtypes), keywords));
    }
  }

  // `x.dtype` of each of `bindings` that may be 8-bit, whose sublane blocks are multiples of 32
  // rows (passes::block_multiple).
  std::vector<std::string> packed_dtypes(const std::vector<int>& bindings) const {
    std::vector<std::string> dtypes;
    for (int binding : bindings) {
      const std::optional<ir::ScalarType> known = kernel_.bindings[binding].type.dtype;
      if (!known || passes::block_multiple(passes::BlockRole::kSublane, {*known}) != 8) {
        dtypes.push_back(binding_name(kernel_, binding) + ".dtype");
      }
    }
    return dtypes;
  }

  // `kernel.py:12: the kernel reads `tile.id` or `tile.count` of the loop over `n``: the start
  // of `_kept_block`'s message.
  std::string kept_reason(const ir::TileDim& dim) const {
    std::string where;
    if (dim.range.valid()) {
      where = fmt::format("{}:{}: ", dim.range.file->path(),
                          dim.range.file->line_column(dim.range.begin).line);
    }
    if (dim.merged) {
      return fmt::format(
          "{}a reshape merges the tiles of this loop into another tile's dimension, which "
          "needs blocks of 1",
          where);
    }
    const int value = kernel_.block_value_binding(dim.block.tunable);
    if (dim.block.kind == ir::BlockSource::Kind::kTunable && value >= 0) {
      return fmt::format("{}the kernel reads the value of `{}`, the block size of this loop", where,
                         kernel_.bindings[static_cast<size_t>(value)].name);
    }
    if (!passes::observes_block_positions(kernel_, dim)) {
      return fmt::format(
          "{}the kernel computes with `tile.block_size` of this loop, and the source fixes its "
          "block size",
          where);
    }
    return fmt::format(
        "{}the kernel reads `tile.id` or `tile.count` of this loop, or indexes with its "
        "`tile.begin` or `tile.end`, and the source fixes its block size",
        where);
  }

  void print_blocks() {
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      const ir::TileDim& dim = kernel_.tile_dims[launch_.grid[g].tile_dim];
      if (is_grid(dim)) {
        first_block_.push_back({});
        steps_.push_back(sizes_[g]);
        continue;
      }
      const passes::GridDim& grid = launch_.grid[g];
      const std::string& block = blocks_[g];
      out_.line(fmt::format("{} = {}", block, legal_blocks_[g]));
      if (has_begin(dim) && !in_kernel_bounds_[g]) {
        // Blocks are numbered from the array's start: the first is the one holding `begin`.
        first_block_.push_back(py_binary("//", host_.expr(dim.begin), py_atom(block)));
        PyExpr steps = py_binary("-", py_call("pl.cdiv", {host_.text(dim.extent), block}),
                                 first_block_.back());
        if (grid.inner_loop >= 0 && on_grid(g)) {
          // An empty range still takes one step of a `grid` loop (the kernel skips its work
          // there), so the statements around the loop run and its outputs are written.
          steps = py_call("max", {steps.text, "1"});
        }
        steps_.push_back(std::move(steps));
      } else {
        first_block_.push_back({});
        steps_.push_back(py_call("pl.cdiv", {sizes_[g].text, block}));
      }
    }
    print_paired_checks();
  }

  // For each two loops whose tiles the kernel combines row by row (ir::TileDim::paired_with),
  // the check that their blocks are equal, once the blocks are known.
  void print_paired_checks() {
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      const ir::TileDim& dim = kernel_.tile_dims[launch_.grid[g].tile_dim];
      if (!launch_.grid[g].from_begin || dim.paired_with < dim.id) continue;
      const size_t other = grid_axis(dim.paired_with);
      const ir::TileDim& partner = kernel_.tile_dims[dim.paired_with];
      host_.context.imports.helpers.insert("paired_blocks");
      out_.line(
          fmt::format("_paired_blocks({}, {}, {})", blocks_[g], blocks_[other],
                      py_string(fmt::format("{}: the tiles `{}` and `{}`, combined row by row,",
                                            launch_label(), dim.name, partner.name))));
    }
  }

  // The elements the blocks of a dimension's operands span along whole dimensions (`x[t, :]`:
  // x's second dimension), for the default block size; "" when none does.
  std::string whole_elements(const passes::GridDim& grid) const {
    std::vector<std::string> products;
    for (const passes::TileUse& use : grid.uses) {
      const Operand& operand =
          use.output ? launch_.outputs[use.operand].operand : launch_.inputs[use.operand].operand;
      std::vector<PyExpr> factors;
      for (const ViewAxis& axis : operand.view) {
        if (axis.kind == ViewAxis::Kind::kFull) {
          factors.push_back(size_expr(operand.binding, axis.array_axis));
        }
      }
      if (factors.empty()) continue;
      const std::string text = product(1, factors).text;
      if (std::find(products.begin(), products.end(), text) == products.end()) {
        products.push_back(text);
      }
    }
    if (products.size() <= 1) return products.empty() ? "" : products.front();
    return py_call("max", products).text;
  }

  void print_any_rank_tiling() {
    host_.context.imports.helpers.insert("any_rank_tiles");
    const ir::TileDim& dim = kernel_.tile_dims[launch_.grid.front().tile_dim];
    view_ = host_.local("view");
    const std::string block_shape = host_.local("block_shape");
    grid_ = host_.local("grid");
    tile_spec_ = host_.local("tile_spec");
    std::vector<int> bindings;
    for (const passes::Input& input : launch_.inputs) bindings.push_back(input.operand.binding);
    for (const passes::Output& output : launch_.outputs) bindings.push_back(output.operand.binding);
    std::sort(bindings.begin(), bindings.end());
    bindings.erase(std::unique(bindings.begin(), bindings.end()), bindings.end());
    const std::vector<std::string> dtypes = packed_dtypes(bindings);
    out_.line(fmt::format("{}, {}, {} = _any_rank_tiles({}, {}{})", view_, block_shape, grid_,
                          sizes_.front().text, requested_block(dim, true),
                          dtypes.empty() ? "" : ", dtypes=" + py_tuple(dtypes)));
    const std::string index = grid_params_.front();
    out_.line(fmt::format(
        "{} = pl.BlockSpec(block_shape={}, index_map=lambda *{}: (0,) * (len({}) - len({})) + {})",
        tile_spec_, block_shape, index, view_, index, index));
  }

  // Row gathers that may copy their rows by DMA (passes::dma_gathers): the path, chosen from
  // the sizes while JAX traces, and for DMA a column block that divides the table's rows.
  void print_gather_plans() {
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      const Operand& table = launch_.inputs[i].operand;
      const int ids = dma_ids(table);
      if (ids < 0) continue;
      const Operand& indices = launch_.inputs[static_cast<size_t>(ids)].operand;
      const std::string name = binding_name(kernel_, table.binding);
      const std::string flag = host_.local(name + "_by_dma");
      gather_flags_[static_cast<int>(i)] = flag;
      const std::string rows = blocks_[grid_axis(indices.index.front().tile_dim)];
      host_.context.imports.helpers.insert("gather");
      host_.context.imports.math = true;
      const ViewAxis& columns = table.view[1];
      if (columns.kind == ViewAxis::Kind::kTile) {
        const std::string block = blocks_[grid_axis(columns.tile_dim)];
        out_.line(fmt::format("{}, {} = _gather_plan({}, {}, {})", flag, block, name, rows, block));
      } else {
        out_.line(fmt::format("{} = _gather_plan({}, {}, {})[0]", flag, name, rows,
                              host_.size_text(table.binding, columns.array_axis, stmt_index_)));
      }
    }
  }

  // The input holding the indices of a row gather that may copy by DMA, or -1.
  static int dma_ids(const Operand& operand) {
    for (const ViewAxis& axis : operand.view) {
      if (axis.dma_ids >= 0) return axis.dma_ids;
    }
    return -1;
  }

  std::string grid_text() const {
    if (launch_.variadic) return grid_;
    std::vector<std::string> steps;
    for (const PyExpr& step : steps_) steps.push_back(step.text);
    return in_grid_order(steps);
  }

  // One text per launch dimension (those not on the grid are skipped) as a tuple in the grid's
  // order: the loop's own dimensions, in the configured order under `loop_orders`, then the
  // inner loops' grid axes.
  std::string in_grid_order(const std::vector<std::string>& per_dim) const {
    std::vector<std::string> own;  // the launch loop's dimensions
    std::vector<std::string> inner;
    for (size_t g = 0; g < per_dim.size(); ++g) {
      if (!on_grid(g)) continue;
      (launch_.grid[g].inner_loop < 0 ? own : inner).push_back(per_dim[g]);
    }
    if (order_.empty()) {
      own.insert(own.end(), inner.begin(), inner.end());
      return py_tuple(own);
    }
    // `loop_orders`: the loop's own dimensions in the config's order, inner grid axes last.
    const std::string ordered = py_call("_in_order", {py_tuple(own), order_}).text;
    return inner.empty() ? ordered
                         : py_binary("+", py_atom(ordered), py_atom(py_tuple(inner))).text;
  }

  // `lambda tile_m, tile_n: (tile_m, tile_n)`, taking the grid's indices in the configured
  // order when `loop_orders` reorders the grid.
  std::string index_map(const std::vector<std::string>& index) const {
    const std::string map = fmt::format("lambda {}: {}", index_params(), py_tuple(index));
    return order_.empty() ? map : py_call("_in_loop_order", {map, order_}).text;
  }

  // The block number along launch dimension `g` in an index map. A `grid` inner loop whose
  // steps past the causal diagonal are skipped (passes::StepSkip) stays at the last block it
  // needs, so Pallas copies nothing for the skipped steps.
  PyExpr block_index(size_t g) const {
    PyExpr index = first_block_[g].text.empty()
                       ? py_atom(grid_params_[g])
                       : py_binary("+", py_atom(grid_params_[g]), first_block_[g]);
    const int inner = launch_.grid[g].inner_loop;
    if (inner < 0) return index;
    const passes::GridDim& grid = launch_.grid[g];
    if (!first_block_[g].text.empty() && grid.size_binding >= 0) {
      // The one step of an empty range (`start == m`) reads a block that exists: the last.
      const std::string size = host_.size_text(grid.size_binding, grid.size_axis, stmt_index_);
      const PyExpr last = py_binary("-", py_call("pl.cdiv", {size, blocks_[g]}), py_atom("1"));
      index = py_call("jnp.minimum", {index.text, last.text});
    }
    const std::optional<passes::StepSkip>& skip =
        launch_.inner_loops[static_cast<size_t>(inner)].skip;
    if (!skip) return index;
    const size_t outer = grid_axis(skip->outer_dim);
    // One past the last element the mask keeps: the outer block's end plus the offset.
    PyExpr kept_end =
        py_binary("*", py_binary("+", block_index(outer), py_atom("1")), py_atom(blocks_[outer]));
    if (skip->offset > 0) {
      kept_end = py_binary("+", kept_end, py_atom(std::to_string(skip->offset)));
    }
    const PyExpr last =
        py_binary("//", py_binary("-", kept_end, py_atom("1")), py_atom(blocks_[g]));
    return py_call("jnp.minimum", {index.text, last.text});
  }

  // Whether launch dimension `g` is an axis of the pallas_call's grid in the variant printed.
  bool on_grid(size_t g) const { return schedule_->on_grid(g); }

  // The number of grid axes that are inner loops' (the `grid` strategy): the grid's last ones.
  size_t inner_grid_axes() const {
    if (launch_.variadic) return 0;
    size_t inner = 0;
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (on_grid(g) && launch_.grid[g].inner_loop >= 0) ++inner;
    }
    return inner;
  }

  // "kernel (file.py:12)": the launch in messages raised while JAX traces.
  std::string launch_label() const {
    std::string label = kernel_.name;
    const std::string place = host_.context.where(launch_.tile_loop().range);
    if (!place.empty()) label += " (" + place + ")";
    return label;
  }

  // The index maps' parameters: one per grid axis.
  std::string index_params() const {
    // A rank-polymorphic grid has one index per axis of the call's rank; an operand of known
    // rank there (an element read as a scalar) takes a whole block at (0, ...).
    if (launch_.variadic) return "*" + grid_params_.front();
    std::vector<std::string> params;
    for (size_t g = 0; g < grid_params_.size(); ++g) {
      if (on_grid(g)) params.push_back(grid_params_[g]);
    }
    return fmt::format("{}", fmt::join(params, ", "));
  }

  // ---- the trace-time VMEM check (passes/vmem_fallback.h) --------------------------------

  // Every launch of a kernel with a config: `config = _fit_vmem(...)` with each variant's VMEM
  // bytes as the accounting's formula (passes/vmem_formula.h) over the launch's blocks and this
  // call's sizes, so that the blocks and the branch below are ones that fit, and so that a
  // launch that needs more than Mosaic's default scoped VMEM gets `vmem_limit_bytes` (the
  // compiler refuses it otherwise). Only the variants' formulas, the fallbacks and the blocks
  // that may shrink differ between launches.
  void print_vmem_fallback() {
    if (config_.empty()) return;  // no tunables: no config to carry `vmem_limit_bytes`
    const bool falls_back = std::any_of(names_.fallbacks.begin(), names_.fallbacks.end(),
                                        [](int fallback) { return fallback >= 0; });
    const std::vector<int> halve = passes::shrinkable_blocks(kernel_, launch_);
    const autotune::TargetInfo* target = autotune::find_target(host_.context.options.target);
    HELIONC_CHECK(target != nullptr, "emit_module checked the target");
    std::vector<passes::SizeExpr> formulas;
    for (const passes::LaunchSchedule& schedule : schedules_) {
      Expected<passes::SizeExpr> formula =
          passes::launch_vmem(kernel_, launch_, schedule, target->lane_move_scratch_bytes);
      if (!formula) {
        if (falls_back) out_.comment(fmt::format("No trace-time VMEM check: {}.", formula.error()));
        return;
      }
      formulas.push_back(std::move(*formula));
    }

    // The blocks as `_fit_vmem` passes them: the grid axes that have one, in order.
    std::vector<std::string> params;
    std::vector<std::string> legal;
    std::vector<int> position(launch_.grid.size(), -1);
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (g >= legal_blocks_.size() || blocks_[g].empty()) continue;  // any rank, hl.grid
      // Two loops over one dimension share its block's name, and its value.
      const auto known = std::find(params.begin(), params.end(), blocks_[g]);
      position[g] = static_cast<int>(known - params.begin());
      if (known != params.end()) continue;
      params.push_back(blocks_[g]);
      legal.push_back(legal_blocks_[g]);
    }
    std::vector<std::string> halved;
    std::set<int> halved_positions;
    for (int g : halve) {
      if (!halved_positions.insert(position[static_cast<size_t>(g)]).second) continue;
      const int tunable =
          kernel_.tile_dims[launch_.grid[static_cast<size_t>(g)].tile_dim].block.tunable;
      halved.push_back(
          py_tuple({std::to_string(position[static_cast<size_t>(g)]), std::to_string(tunable)}));
    }
    std::vector<std::string> fallbacks;
    for (size_t v = 0; v < names_.variants.size(); ++v) {
      if (names_.fallbacks[v] < 0) continue;
      fallbacks.push_back(
          fmt::format("{}: {}", KernelLoopTypes::python_tuple(names_.variants[v]),
                      KernelLoopTypes::python_tuple(
                          names_.variants[static_cast<size_t>(names_.fallbacks[v])])));
    }
    host_.context.imports.helpers.insert("fit_vmem");
    host_.context.imports.helpers.insert("vmem_bytes");
    out_.comment(
        "The VMEM each strategy needs (the accounting of --emit report); strategies and blocks "
        "that do not fit fall back (docs/guide/tuning.md, \"Trace-time VMEM fallback\").");
    {
      auto call = out_.block(fmt::format("{} = _fit_vmem(", config_));
      out_.line(config_ + ",");
      out_.line(py_string(launch_label()) + ",");
      out_.line(fmt::format("{},", names_.first_loop));
      out_.line(fmt::format("lambda {}: {},", config_, py_tuple(legal)));
      {
        auto needs = out_.block(fmt::format("lambda {}: {{", fmt::join(params, ", ")));
        for (size_t v = 0; v < formulas.size(); ++v) {
          out_.line(fmt::format("{}: {},", KernelLoopTypes::python_tuple(names_.variants[v]),
                                size_text(formulas[v]).text));
        }
      }
      out_.line("},");
      out_.line(fmt::format("{{{}}},", fmt::join(fallbacks, ", ")));
      out_.line(fmt::format("{},", py_tuple(halved)));
      out_.line(fmt::format("{},  # {} VMEM per core", target->vmem_bytes, target->name));
      out_.line(fmt::format("{},  # Mosaic's VMEM limit without vmem_limit_bytes",
                            target->default_scoped_vmem_bytes));
    }
    out_.line(")");
  }

  // A VMEM formula as Python over the names this launch's host code binds.
  PyExpr size_text(const passes::SizeExpr& formula) const {
    return print_size(formula, [this](const passes::SizeExpr& leaf) {
      using Kind = passes::SizeExpr::Kind;
      switch (leaf.kind) {
        case Kind::kBlock: {
          const std::string& block = blocks_[static_cast<size_t>(leaf.index)];
          return py_atom(block.empty() ? "1" : block);  // hl.grid: blocks of one element
        }
        case Kind::kAxisSize:
          return size_expr(leaf.binding, leaf.axis);
        case Kind::kItemSize:  // `_vmem_bytes` takes the dtype held in VMEM (float16 as float32)
          return py_atom(
              fmt::format("_device_dtype({}.dtype)", binding_name(kernel_, leaf.binding)));
        case Kind::kExtent:
          return sizes_[static_cast<size_t>(leaf.index)];
        case Kind::kBuffers:
          return py_atom(stream_slots(static_cast<size_t>(leaf.index)));
        case Kind::kComputed:
          return host_.expr(kernel_.computed_sizes[static_cast<size_t>(leaf.index)].value);
        default:
          HELIONC_UNREACHABLE("not a leaf of a size formula");
      }
    });
  }

  // ---- operands --------------------------------------------------------------------------

  std::string spec(const Operand& operand, const passes::OperandSchedule& placed) {
    if (operand.variadic) return tile_spec_;
    if (placed.memory == passes::MemorySpace::kSmem) return "pl.BlockSpec(memory_space=pltpu.SMEM)";
    if (placed.memory == passes::MemorySpace::kHbm) return "pl.BlockSpec(memory_space=pl.ANY)";
    const bool gathers = std::any_of(operand.view.begin(), operand.view.end(),
                                     [](const ViewAxis& axis) { return axis.gather != nullptr; });
    std::vector<std::string> block;
    std::vector<std::string> index;
    for (size_t a = 0; a < operand.view.size(); ++a) {
      const ViewAxis& axis = operand.view[a];
      switch (axis.kind) {
        case ViewAxis::Kind::kTile: {
          const size_t g = grid_axis(axis.tile_dim);
          if (placed.axes[a] == passes::AxisPlacement::kResident) {
            // The inner loop reads windows of the whole axis, resident in VMEM, padded to
            // whole blocks so that the last window stays inside the block; by one block more
            // for a paired loop, whose windows start at its begin (GridDim::from_begin).
            const std::string size = host_.size_text(operand.binding, axis.array_axis, stmt_index_);
            PyExpr blocks = py_call("pl.cdiv", {size, blocks_[g]});
            if (launch_.grid[g].from_begin) blocks = py_binary("+", blocks, py_atom("1"));
            block.push_back(py_binary("*", blocks, py_atom(blocks_[g])).text);
            index.emplace_back("0");
            break;
          }
          // A squeezed tile axis is a block of one row (plan_views.h, `one_row`).
          block.push_back(axis.squeezed ? "None" : blocks_[g]);
          index.push_back(block_index(g).text);
          break;
        }
        case ViewAxis::Kind::kFull:
          block.push_back(host_.size_text(operand.binding, axis.array_axis, stmt_index_));
          index.emplace_back("0");
          break;
        case ViewAxis::Kind::kScalar:
          block.emplace_back("None");
          index.push_back(index_exprs_.text(axis.scalar));
          break;
        case ViewAxis::Kind::kUnit:
          block.emplace_back(axis.squeezed ? "None" : "1");
          index.emplace_back("0");
          break;
        case ViewAxis::Kind::kColumn: {
          const std::string width = column_width(operand, axis);
          block.push_back(width);
          index.push_back(py_binary("//", index_exprs_.print(axis.scalar), py_atom(width)).text);
          break;
        }
      }
    }
    std::string blocked = fmt::format("pl.BlockSpec(block_shape={}, index_map={})", py_tuple(block),
                                      index_map(index));
    if (placed.hbm_when_gathered_by_dma) {
      // Left in HBM when the rows are copied by DMA (`_gather_plan` checked the one-hot's size).
      for (const auto& [input, flag] : gather_flags_) {
        if (&launch_.inputs[static_cast<size_t>(input)].operand == &operand) {
          return fmt::format("pl.BlockSpec(memory_space=pl.ANY) if {} else {}", flag, blocked);
        }
      }
    }
    if (gathers) {
      // The gathered axis stays whole in VMEM: say so at trace time when it cannot.
      host_.context.imports.helpers.insert("gather");
      host_.context.imports.math = true;
      const std::string name = binding_name(kernel_, operand.binding);
      out_.line(fmt::format("_check_gather_block({}, {}, {}.dtype, {})", py_string(name),
                            py_tuple(block), name, py_string(host_.context.where(operand.range))));
    }
    return blocked;
  }

  // The width of the lane-aligned window holding a column (`x_lanes = min(n, 128)`), printed
  // once per array before the call.
  std::string column_width(const Operand& operand, const ViewAxis& axis) {
    std::string name = column_width_name(operand);
    if (column_widths_.insert(name).second) {
      out_.line(fmt::format("{} = min({}, 128)  # a lane-aligned window holding the column", name,
                            host_.size_text(operand.binding, axis.array_axis, stmt_index_)));
    }
    return name;
  }

  std::string column_width_name(const Operand& operand) const {
    return host_.local(binding_name(kernel_, operand.binding) + "_lanes");
  }

  size_t grid_axis(int tile_dim) const {
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (launch_.grid[g].tile_dim == tile_dim) return g;
    }
    HELIONC_UNREACHABLE("an operand tiled by a dimension outside its launch");
  }

  void use_smem_array() const {
    host_.context.imports.helpers.insert("smem_array");
    host_.context.imports.helpers.insert("vmem_bytes");
  }

  // What the target's SMEM holds for a kernel's operands (autotune::smem_capacity).
  int64_t smem_capacity() const {
    const autotune::TargetInfo* target = autotune::find_target(host_.context.options.target);
    HELIONC_CHECK(target != nullptr, "emit_module checked the target");
    return autotune::smem_capacity(*target);
  }

  // The array as the kernel's view: `bias[None]`, `x[:, None]`, `x.reshape(view)`.
  std::string argument(const Operand& operand) const {
    std::string name = binding_name(kernel_, operand.binding);
    if (operand.variadic) return fmt::format("{}.reshape({})", name, view_);
    if (operand.smem) {
      use_smem_array();
      return fmt::format("_smem_array({}, {}, {})", name, py_string(name), smem_capacity());
    }
    if (!operand.reshaped) return name;
    return name + view_subscript(operand, "None");
  }

  // `[None]`, `[:, None]` (into the view) or `[0]`, `[:, 0]` (back): `unit` at the view's unit
  // axes, `:` elsewhere, trailing `:` left out.
  static std::string view_subscript(const Operand& operand, std::string_view unit) {
    std::vector<std::string> items;
    for (const ViewAxis& axis : operand.view) {
      items.push_back(axis.kind == ViewAxis::Kind::kUnit ? std::string(unit) : ":");
    }
    while (!items.empty() && items.back() == ":") items.pop_back();
    return fmt::format("[{}]", fmt::join(items, ", "));
  }

  std::string out_shape(const passes::Output& output) const {
    const Operand& operand = output.operand;
    std::string name = binding_name(kernel_, operand.binding);
    if (operand.variadic) return fmt::format("jax.ShapeDtypeStruct({}, {}.dtype)", view_, name);
    if (operand.reshaped) {
      std::vector<std::string> dims;
      for (const ViewAxis& axis : operand.view) {
        dims.push_back(axis.kind == ViewAxis::Kind::kUnit
                           ? "1"
                           : host_.size_text(operand.binding, axis.array_axis, stmt_index_));
      }
      return fmt::format("jax.ShapeDtypeStruct({}, {}.dtype)", py_tuple(dims), name);
    }
    if (host_.declared.count(operand.binding)) return name;
    return fmt::format("jax.ShapeDtypeStruct({}.shape, {}.dtype)", name, name);
  }

  // The suffix that turns a result in the view's shape back into the array's shape.
  std::string back_from_view(const Operand& operand) const {
    if (operand.variadic) {
      return fmt::format(".reshape({}.shape)", binding_name(kernel_, operand.binding));
    }
    if (!operand.reshaped) return "";
    return view_subscript(operand, "0");
  }

  // ---- cost ------------------------------------------------------------------------------

  // The number of elements of a value of shape `dims` summed over the grid.
  std::vector<PyExpr> element_factors(const std::vector<ir::Dim>& dims) const {
    std::vector<PyExpr> factors;
    std::vector<bool> covered(launch_.grid.size(), false);
    for (const ir::Dim& dim : dims) {
      switch (dim.kind) {
        case ir::Dim::Kind::kTile: {
          const size_t g = grid_axis(dim.tile_dim);
          covered[g] = true;
          factors.push_back(sizes_[g]);
          break;
        }
        case ir::Dim::Kind::kTilePart: {  // the groups of the tile's extent
          const size_t g = grid_axis(dim.tile_dim);
          covered[g] = true;
          factors.push_back(
              py_atom(fmt::format("pl.cdiv({}, {})", sizes_[g].text, std::to_string(dim.extent))));
          break;
        }
        case ir::Dim::Kind::kVariadic:
          host_.context.imports.math = true;
          covered[grid_axis(dim.tile_dim)] = true;
          factors.push_back(py_call("math.prod", {sizes_[grid_axis(dim.tile_dim)].text}));
          break;
        case ir::Dim::Kind::kFull:
        case ir::Dim::Kind::kSlice:  // at most the axis: the estimate is an upper bound
          factors.push_back(size_expr(dim.binding, dim.axis));
          break;
        case ir::Dim::Kind::kLiteral:
          factors.push_back(py_atom(std::to_string(dim.extent)));
          break;
        case ir::Dim::Kind::kComputed:
          factors.push_back(
              host_.expr(kernel_.computed_sizes[static_cast<size_t>(dim.size)].value));
          break;
        case ir::Dim::Kind::kUnit:
          break;
      }
    }
    // Computed once per grid step along the dimensions the value is not tiled by.
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (!covered[g] && launch_.grid[g].inner_loop < 0) factors.push_back(steps_text(g));
    }
    return factors;
  }

  PyExpr steps_text(size_t g) const {
    if (launch_.variadic) return py_call("math.prod", {grid_});
    return steps_[g];
  }

  PyExpr size_expr(int binding, int axis) const {
    const std::string text = host_.size_text(binding, axis, stmt_index_);
    return py_atom(text);  // a name or `x.shape[1]`: primaries
  }

  // pl.CostEstimate's figure: each shape's elements once, whatever loop computes them (terms of
  // one shape in different inner loops are one).
  std::string cost_sum(const std::vector<passes::CostTerm>& terms) const {
    std::vector<std::pair<std::vector<ir::Dim>, int64_t>> shapes;
    for (const passes::CostTerm& term : terms) {
      auto same = std::find_if(shapes.begin(), shapes.end(),
                               [&](const auto& shape) { return shape.first == term.elements; });
      if (same == shapes.end()) {
        shapes.emplace_back(term.elements, term.count);
      } else {
        same->second += term.count;
      }
    }
    std::vector<PyExpr> parts;
    parts.reserve(shapes.size());
    for (const auto& [elements, count] : shapes) {
      parts.push_back(product(count, element_factors(elements)));
    }
    return sum(parts);
  }

  // Bytes an operand moves between HBM and VMEM: its blocks over the grid, fetched again when
  // a grid dimension it does not depend on changes before one it does (every step for an input
  // the body streams).
  PyExpr operand_bytes(const Operand& operand, const passes::OperandSchedule& placed) const {
    const PyExpr itemsize =
        py_atom(fmt::format("{}.dtype.itemsize", binding_name(kernel_, operand.binding)));
    if (operand.variadic) {
      host_.context.imports.math = true;
      return product(1, {py_call("math.prod", {sizes_.front().text}), itemsize});
    }
    if (placed.memory == passes::MemorySpace::kSmem) {
      std::vector<PyExpr> factors;
      const int rank = kernel_.bindings[operand.binding].type.rank;
      factors.reserve(static_cast<size_t>(rank) + 1);
      for (int a = 0; a < rank; ++a) factors.push_back(size_expr(operand.binding, a));
      factors.push_back(itemsize);
      return product(1, factors);
    }
    std::vector<PyExpr> factors;
    for (size_t a = 0; a < operand.view.size(); ++a) {
      const ViewAxis& axis = operand.view[a];
      switch (placed.axes[a]) {
        case passes::AxisPlacement::kBlock:
          factors.push_back(sizes_[grid_axis(axis.tile_dim)]);
          break;
        case passes::AxisPlacement::kResident:
          // The whole axis stays resident: fetched once per block of the other axes.
          factors.push_back(size_expr(operand.binding, axis.array_axis));
          break;
        case passes::AxisPlacement::kWhole:
          factors.push_back(axis.kind == ViewAxis::Kind::kColumn
                                ? py_atom(column_width_name(operand))
                                : size_expr(operand.binding, axis.array_axis));
          break;
        case passes::AxisPlacement::kNone:
          break;
      }
    }
    for (int g : placed.selected_dims) factors.push_back(sizes_[static_cast<size_t>(g)]);
    std::vector<bool> used(launch_.grid.size(), false);
    for (int g : placed.index_dims) used[static_cast<size_t>(g)] = true;
    const auto last_used = std::find(used.rbegin(), used.rend(), true);
    const size_t end = placed.streamed_by >= 0    ? used.size()
                       : last_used == used.rend() ? 0
                                                  : used.rend() - last_used;
    for (size_t g = 0; g < end; ++g) {
      if (on_grid(g) && !used[g]) factors.push_back(steps_[g]);
    }
    factors.push_back(itemsize);
    return product(1, factors);
  }

  std::string bytes_accessed() const {
    std::vector<PyExpr> parts;
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      if (launch_.inputs[i].kind == Input::Kind::kAliasedUnread) continue;
      parts.push_back(operand_bytes(launch_.inputs[i].operand, schedule_->inputs[i]));
    }
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      parts.push_back(operand_bytes(launch_.outputs[o].operand, schedule_->outputs[o]));
    }
    return sum(parts);
  }

  // ---- the call --------------------------------------------------------------------------

  void print_call(size_t variant) {
    schedule_ = &schedules_[variant];
    std::vector<std::string> targets;
    std::vector<std::string> after;  // lines that reshape results back
    const bool single = launch_.outputs.size() == 1;
    std::string chained;
    for (const passes::Output& output : launch_.outputs) {
      const std::string name = binding_name(kernel_, output.operand.binding);
      const std::string back = back_from_view(output.operand);
      if (back.empty()) {
        targets.push_back(name);
      } else if (single) {
        targets.push_back(name);
        chained = back;
      } else {
        const std::string temp = host_.temporary(name + "_view");
        targets.push_back(temp);
        after.push_back(fmt::format("{} = {}{}", name, temp, back));
      }
    }

    std::vector<std::string> arguments;
    std::vector<std::string> in_specs;
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      const Input& input = launch_.inputs[i];
      const passes::OperandSchedule& placed = schedule_->inputs[i];
      if (placed.zero_padded) {
        // Streamed: left in HBM, copied by hand, so the copies must not read past the end.
        // Otherwise padded along the inner loop's axis so that its products need no mask.
        const bool streamed = placed.streamed_by >= 0;
        const std::vector<std::string> blocks =
            operand_blocks(input.operand, streamed ? nullptr : &placed);
        if (const std::vector<std::string> past = past_end_axes(input.operand); !past.empty()) {
          // A paired loop's windows start at its begin: the last reaches a block further.
          host_.context.imports.helpers.insert("pad_past_end");
          arguments.push_back(fmt::format("_pad_past_end({}, {}, {})", argument(input.operand),
                                          py_tuple(blocks), py_tuple(past)));
        } else {
          host_.context.imports.helpers.insert("pad_to_blocks");
          arguments.push_back(
              fmt::format("_pad_to_blocks({}, {})", argument(input.operand), py_tuple(blocks)));
        }
        in_specs.push_back(spec(input.operand, placed));
        continue;
      }
      if (input.gather_ids_of >= 0) {
        // In SMEM only when the gather copies rows by DMA (else a placeholder).
        use_smem_array();
        const std::string name = binding_name(kernel_, input.operand.binding);
        arguments.push_back(fmt::format("_gather_ids({}, {}, {}, {})", name,
                                        gather_flags_.at(input.gather_ids_of), py_string(name),
                                        smem_capacity()));
        in_specs.push_back(spec(input.operand, placed));
        continue;
      }
      arguments.push_back(argument(input.operand));
      in_specs.push_back(spec(input.operand, placed));
    }
    std::vector<std::string> out_shapes;
    std::vector<std::string> out_specs;
    std::vector<std::string> aliases;
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      const passes::Output& output = launch_.outputs[o];
      out_shapes.push_back(out_shape(output));
      out_specs.push_back(spec(output.operand, schedule_->outputs[o]));
      if (output.aliased_input >= 0) {
        aliases.push_back(fmt::format("{}: {}", output.aliased_input, o));
      }
    }

    std::string function = names_.variant_functions[variant];
    if (!launch_.captures.empty() || !order_.empty()) {
      host_.context.imports.functools = true;
      std::vector<std::string> bound = {function};
      if (!order_.empty()) bound.push_back(fmt::format("{}={}", names_.loop_order, order_));
      for (size_t i = 0; i < launch_.captures.size(); ++i) {
        const passes::Capture& capture = launch_.captures[i];
        const std::string value =
            capture.binding >= 0 ? binding_name(kernel_, capture.binding) : std::string();
        switch (capture.kind) {
          // A dtype the kernel uses is the one it holds values in (prelude `_device_dtype`).
          case passes::Capture::Kind::kValue:
            bound.push_back(
                fmt::format("{}={}", names_.captures[i],
                            kernel_.bindings[capture.binding].type.kind == ir::TypeKind::kDtype
                                ? py_call("_device_dtype", {value}).text
                                : value));
            break;
          case passes::Capture::Kind::kDtype:
            bound.push_back(fmt::format("{}=_device_dtype({}.dtype)", names_.captures[i], value));
            break;
          case passes::Capture::Kind::kShape:
            bound.push_back(fmt::format("{}={}.shape", names_.captures[i], value));
            break;
          case passes::Capture::Kind::kBlock:
            bound.push_back(
                fmt::format("{}={}", names_.captures[i], blocks_[grid_axis(capture.tile_dim)]));
            break;
          case passes::Capture::Kind::kGatherByDma:
            bound.push_back(
                fmt::format("{}={}", names_.captures[i], gather_flags_.at(capture.input)));
            break;
        }
      }
      function = py_call("functools.partial", bound).text;
    }

    std::vector<std::string> axes;
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      axes.emplace_back(schedule_->dim(g).arbitrary ? "\"arbitrary\"" : "\"parallel\"");
    }
    const std::string semantics =
        launch_.variadic ? fmt::format("(\"parallel\",) * len({})", grid_) : in_grid_order(axes);
    const std::vector<std::string> scratch = scratch_shapes();
    const std::string name =
        launches_ == 1 ? kernel_.name : fmt::format("{}_{}", kernel_.name, launch_.index);

    {
      // `_pallas_call` (prelude): pl.pallas_call, skipped when the loop runs no steps.
      auto call = out_.block(fmt::format("{} = _pallas_call(", fmt::join(targets, ", ")));
      out_.line(function + ",");
      if (single) {
        out_.line(fmt::format("out_shape={},", out_shapes[0]));
      } else {
        sequence("out_shape=(", out_shapes, ")");
      }
      out_.line(fmt::format("grid={},", grid_text()));
      sequence("in_specs=[", in_specs, "]");
      if (single) {
        out_.line(fmt::format("out_specs={},", out_specs[0]));
      } else {
        sequence("out_specs=(", out_specs, ")");
      }
      if (!scratch.empty()) sequence("scratch_shapes=[", scratch, "]");
      if (!aliases.empty()) {
        out_.line(fmt::format("input_output_aliases={{{}}},", fmt::join(aliases, ", ")));
      }
      // A kernel without tunables has no config (and so no `vmem_limit_bytes`).
      const std::string vmem_limit =
          config_.empty() ? ""
                          : fmt::format(", vmem_limit_bytes={}.get(\"vmem_limit_bytes\")", config_);
      out_.line(fmt::format("compiler_params=pltpu.CompilerParams(dimension_semantics={}{}),",
                            semantics, vmem_limit));
      {
        auto cost = out_.block("cost_estimate=pl.CostEstimate(");
        out_.line(fmt::format("flops={},", cost_sum(launch_.cost.flops)));
        out_.line(fmt::format("transcendentals={},", cost_sum(launch_.cost.transcendentals)));
        out_.line(fmt::format("bytes_accessed={},", bytes_accessed()));
      }
      out_.line("),");
      out_.line("interpret=_interpret(interpret),");
      out_.line(fmt::format("name={},", py_string(name)));
      out_.line(fmt::format("where={},", py_string(launch_label())));
      if (const size_t inner = inner_grid_axes(); inner > 0) {
        out_.line(fmt::format("inner_steps={},", inner));
      }
      if (const std::string kept = unread_argument(); !kept.empty()) {
        out_.line(fmt::format("keep=({},),", kept));
      }
    }
    out_.line(fmt::format("){}{}", py_tuple_args(arguments), chained));
    for (const std::string& line : after) out_.line(line);
    for (const passes::Output& output : launch_.outputs) {
      host_.declared.erase(output.operand.binding);
    }
  }

  // For a launch that takes no array (it reads the kernel's tensors' shapes only: `out =
  // torch.empty_like(x)`), the kernel's first tensor parameter that is always passed, which
  // `_pallas_call` keeps an argument of the caller's jit (its `keep`); "" otherwise. (A launch
  // whose only operands the host makes, `torch.zeros_like(x)`, is not covered.)
  std::string unread_argument() const {
    if (!launch_.inputs.empty() || launch_.variadic) return "";
    for (const ir::Param& param : kernel_.params) {
      const ir::Type& type = kernel_.bindings[param.binding].type;
      if (type.kind == ir::TypeKind::kTensor && !type.optional) {
        return binding_name(kernel_, param.binding);
      }
    }
    return "";
  }

  // The block of each array axis of a plain tiled operand (1 for whole axes: no padding). With
  // `placed`, only the axes whose blocks an inner loop visits (not grid axes of the launch's
  // own loop, whose partial blocks Pallas handles) get their block.
  // Per view axis of `operand`, whether a paired loop tiles it (`True`/`False`), or nothing
  // when none does: its windows start at the loop's begin (GridDim::from_begin).
  std::vector<std::string> past_end_axes(const Operand& operand) const {
    std::vector<std::string> past;
    bool any = false;
    for (const ViewAxis& axis : operand.view) {
      const bool paired =
          axis.kind == ViewAxis::Kind::kTile && launch_.grid[grid_axis(axis.tile_dim)].from_begin;
      any |= paired;
      past.emplace_back(paired ? "True" : "False");
    }
    return any ? past : std::vector<std::string>{};
  }

  std::vector<std::string> operand_blocks(const Operand& operand,
                                          const passes::OperandSchedule* placed = nullptr) const {
    std::vector<std::string> blocks;
    for (const ViewAxis& axis : operand.view) {
      const bool inner = axis.kind == ViewAxis::Kind::kTile &&
                         launch_.grid[grid_axis(axis.tile_dim)].inner_loop >= 0;
      const bool padded = axis.kind == ViewAxis::Kind::kTile && (placed == nullptr || inner);
      blocks.push_back(padded ? blocks_[grid_axis(axis.tile_dim)] : "1");
    }
    return blocks;
  }

  // The schedule's scratch buffers, in its order (the kernel printer names them in the same).
  std::vector<std::string> scratch_shapes() const {
    std::vector<std::string> shapes;
    for (const passes::ScratchBuffer& buffer : schedule_->scratch) {
      shapes.push_back(scratch_shape(buffer));
    }
    return shapes;
  }

  std::string scratch_shape(const passes::ScratchBuffer& buffer) const {
    using Kind = passes::ScratchBuffer::Kind;
    const auto loop = static_cast<size_t>(buffer.inner_loop);
    switch (buffer.kind) {
      case Kind::kGridCarry:
      case Kind::kPipelineCarry:
        return carry_scratch(
            launch_.inner_loops[loop].tile_loop().carried[static_cast<size_t>(buffer.carry)],
            buffer.lane_rows);
      case Kind::kPipelineStep:
        return "pltpu.SMEM((1,), jnp.int32)";
      case Kind::kStreamSlots: {
        const Operand& operand = launch_.inputs[static_cast<size_t>(buffer.input)].operand;
        std::vector<std::string> dims = {stream_slots(loop)};
        for (const ViewAxis& axis : operand.view) {
          dims.push_back(axis.kind == ViewAxis::Kind::kTile
                             ? blocks_[grid_axis(axis.tile_dim)]
                             : host_.size_text(operand.binding, axis.array_axis, stmt_index_));
        }
        return fmt::format("pltpu.VMEM({}, {}.dtype)", py_tuple(dims),
                           binding_name(kernel_, operand.binding));
      }
      case Kind::kStreamSemaphores:
        return fmt::format("pltpu.SemaphoreType.DMA(({}, {}))",
                           launch_.inner_loops[loop].streamed_inputs.size(), stream_slots(loop));
      case Kind::kGatherRows: {
        // The VMEM rows of a block, or their tiles (`_gather_rows_buffer`; a placeholder when
        // the gather runs as a one-hot).
        const Operand& table = launch_.inputs[static_cast<size_t>(buffer.input)].operand;
        const Operand& indices = launch_.inputs[static_cast<size_t>(dma_ids(table))].operand;
        const ViewAxis& columns = table.view[1];
        const std::string name = binding_name(kernel_, table.binding);
        const PyExpr block =
            py_call("_gather_rows_buffer",
                    {name, blocks_[grid_axis(indices.index.front().tile_dim)],
                     columns.kind == ViewAxis::Kind::kTile
                         ? blocks_[grid_axis(columns.tile_dim)]
                         : host_.size_text(table.binding, columns.array_axis, stmt_index_)});
        return fmt::format("pltpu.VMEM({} if {} else (8, 128), {}.dtype)", block.text,
                           gather_flags_.at(buffer.input), name);
      }
      case Kind::kGatherSemaphore:
        return "pltpu.SemaphoreType.DMA(())";
    }
    HELIONC_UNREACHABLE("a scratch buffer of no kind");
  }

  // The slot count of a `fori_loop` loop's streamed inputs, read from the config at trace time.
  std::string stream_slots(size_t loop) const {
    host_.context.imports.helpers.insert("dma");
    return fmt::format("_load_buffers({}, {})", config_, names_.first_loop + loop);
  }

  // `pltpu.VMEM((block_m, block_n), jnp.float32)` for a carried value (with a last axis of 128
  // lanes more for a lane row: plan_lane_rows.h).
  std::string carry_scratch(const ir::TileLoop::Carry& carry, bool lane_rows) const {
    const ir::Type& type = kernel_.bindings[carry.init].type;
    std::vector<std::string> dims;
    for (const ir::Dim& dim : type.dims) {
      switch (dim.kind) {
        case ir::Dim::Kind::kTile:
          dims.push_back(blocks_[grid_axis(dim.tile_dim)]);
          break;
        case ir::Dim::Kind::kFull:
          dims.push_back(host_.size_text(dim.binding, dim.axis, stmt_index_));
          break;
        case ir::Dim::Kind::kLiteral:
          dims.push_back(std::to_string(dim.extent));
          break;
        case ir::Dim::Kind::kComputed:
          dims.push_back(host_.text(kernel_.computed_sizes[static_cast<size_t>(dim.size)].value));
          break;
        case ir::Dim::Kind::kTilePart:
          dims.push_back(fmt::format("{} // {}", blocks_[grid_axis(dim.tile_dim)], dim.extent));
          break;
        case ir::Dim::Kind::kUnit:
        case ir::Dim::Kind::kSlice:  // judge_loop_strategies rules these out
        case ir::Dim::Kind::kVariadic:
          dims.emplace_back("1");
          break;
      }
    }
    if (lane_rows) dims.push_back(std::to_string(passes::kLaneRowLanes));
    // In the dtype device code holds it in (float16 as float32: ir::device_dtype).
    return fmt::format("pltpu.VMEM({}, {})", py_tuple(dims),
                       ir::jnp_dtype(ir::device_dtype(*type.dtype)));
  }

  // `head item, item close,` on one line when it fits, else one item per line.
  void sequence(std::string_view head, const std::vector<std::string>& items,
                std::string_view close) {
    static constexpr size_t kLineLimit = 100;
    const std::string one_line = fmt::format("{}{}{},", head, fmt::join(items, ", "), close);
    const size_t indent = static_cast<size_t>(out_.indent_level()) * PythonWriter::kIndentWidth;
    if (items.empty() || indent + one_line.size() <= kLineLimit) {
      out_.line(one_line);
      return;
    }
    {
      auto list = out_.block(head);
      for (const std::string& item : items) out_.line(item + ",");
    }
    out_.line(fmt::format("{},", close));
  }

  static std::string py_tuple_args(const std::vector<std::string>& arguments) {
    return fmt::format("({})", fmt::join(arguments, ", "));
  }

  PythonWriter& out_;
  HostState& host_;
  const ir::Kernel& kernel_;
  const Launch& launch_;
  const LaunchNames& names_;
  size_t stmt_index_;
  const std::string& config_;
  size_t launches_;
  IndexMapContext index_context_;
  ExprPrinter index_exprs_;

  std::vector<PyExpr> sizes_;              // per grid axis: the number of elements it covers
  std::vector<std::string> grid_params_;   // per grid axis: the index map's parameter
  std::vector<std::string> blocks_;        // per grid axis: the block variable ("" for hl.grid)
  std::vector<std::string> legal_blocks_;  // per grid axis: the `_legal_block(...)` computing it
  std::vector<PyExpr> steps_;              // per grid axis: the number of grid steps
  std::vector<PyExpr> first_block_;        // per grid axis: `begin // block` (empty for none)
  std::string view_, grid_, tile_spec_;    // rank-polymorphic launches
  std::vector<bool> in_kernel_bounds_;     // per dimension: bounds computed in the kernel
  std::vector<passes::LaunchSchedule> schedules_;     // per variant
  const passes::LaunchSchedule* schedule_ = nullptr;  // the variant being printed
  std::string order_;                                 // the grid's order (`loop_orders`), or ""
  std::set<std::string> column_widths_;               // column window widths printed so far
  std::map<int, std::string> gather_flags_;  // table input -> `w_by_dma` (row gathers by DMA)
};

}  // namespace

void print_launch(PythonWriter& out, HostState& host, const passes::Launch& launch,
                  const LaunchNames& names, size_t stmt_index, const std::string& config,
                  size_t launches) {
  LaunchPrinter(out, host, launch, names, stmt_index, config, launches).print();
}

}  // namespace helionc::backend::pallas
