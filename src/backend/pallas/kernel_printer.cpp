#include "backend/pallas/kernel_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "backend/pallas/device_context.h"
#include "backend/pallas/names.h"
#include "backend/pallas/tile_geometry.h"
#include "ir/printer.h"
#include "ir/visitor.h"
#include "support/internal_check.h"

namespace helionc::backend::pallas {

namespace {

using kernel_body::DeviceContext;
using kernel_body::TileGeometry;
using passes::Launch;

class KernelPrinter {
  // The scratch refs of an inner loop that streams its inputs.
  struct Dma {
    std::vector<std::string> buffers;  // `fori_loop`: per streamed input, (slots, *block) VMEM
    std::string semaphores;            // `fori_loop`: (streamed inputs, slots) DMA semaphores
    std::vector<std::string> carries;  // `emit_pipeline`: per carried value, VMEM
    std::string counter;               // `emit_pipeline`: (1,) int32 SMEM, the step's block
  };

 public:
  KernelPrinter(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                const passes::ShapeFacts& facts, const Launch& launch, const LaunchNames& names,
                size_t variant)
      : out_(out),
        context_(context),
        kernel_(kernel),
        facts_(facts),
        launch_(launch),
        names_(names),
        types_(names.variants[variant]),
        schedule_(passes::find_schedule(kernel, launch, types_)),
        function_(names.variant_functions[variant]),
        geometry_(kernel, launch, names, schedule_, scope_),
        device_(context, kernel, facts, launch, names, schedule_, geometry_),
        exprs_(kernel, device_, context.imports, context.diags) {
    geometry_.set_printer(&exprs_);
    for (const ir::Binding& binding : kernel_.bindings) {
      scope_.reserve(safe_local_name(binding.name));
    }
    for (const std::string& name : names_.inputs) scope_.reserve(name);
    for (const std::string& name : names_.outputs) scope_.reserve(name);
    for (const std::string& name : names_.captures) scope_.reserve(name);
  }

  bool print() {
    std::vector<std::string> params = names_.inputs;
    params.insert(params.end(), names_.outputs.begin(), names_.outputs.end());
    name_scratch(params);
    if (!names_.captures.empty() || !names_.loop_order.empty()) params.emplace_back("*");
    params.insert(params.end(), names_.captures.begin(), names_.captures.end());
    if (!names_.loop_order.empty()) params.push_back(names_.loop_order);
    // The body first: it tells which block positions and indices the preamble must compute.
    PythonWriter body;
    body_ = &body;
    prepare_store_masks();
    statements(launch_.tile_loop().body);

    auto function = out_.block(fmt::format("def {}({}):", function_, fmt::join(params, ", ")));
    for (const auto& [binding, axis] : launch_.program_ids) {
      PyExpr index = geometry_.program_id(launch_.grid[axis].tile_dim);
      const ir::TileDim& dim = kernel_.tile_dims[launch_.grid[axis].tile_dim];
      if (has_begin(dim)) index = py_binary("+", exprs_.print(dim.begin), index);
      out_.line(fmt::format("{} = {}", binding_name(kernel_, binding), index.text));
    }
    for (const std::string& line : geometry_.preamble()) out_.line(line);
    copy_in_revisited_outputs();
    const std::string text = body.str();
    if (!text.empty()) out_.line(text.substr(0, text.size() - 1));
    return exprs_.ok();
  }

  // An output block that consecutive steps update (passes::Output::revisiting_dims) is read
  // back from the output ref, which holds the last step's update; the first of those steps
  // (and the first step of a `grid` inner loop) copies the old contents in from the alias.
  void copy_in_revisited_outputs() {
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      const passes::Output& output = launch_.outputs[o];
      if (output.revisiting_dims.empty() && !output.copies_in && !output.copied_in_at_entry) {
        continue;
      }
      // A fresh array whose elements the stores pick has no old contents to copy.
      if (output.aliased_input < 0) continue;
      const std::string& ref = names_.outputs[o];
      const std::string& alias = names_.inputs[static_cast<size_t>(output.aliased_input)];
      const std::string& array = kernel_.bindings[output.operand.binding].name;
      const std::vector<int> grid_inner = grid_inner_loop_dims();
      if (output.revisiting_dims.empty() && grid_inner.empty()) {
        out_.comment(output.copies_in
                         ? fmt::format("{}: the stores pick elements of the block of `{}`; it "
                                       "starts from the old contents",
                                       context_.where(output.operand.range), array)
                         : fmt::format("{}: `{}` is stored in a loop that reads it or under an "
                                       "`if` on a device value; its block starts with the old "
                                       "contents",
                                       context_.where(output.operand.range), array));
        out_.line(fmt::format("{}[...] = {}[...]", ref, alias));
        continue;
      }
      std::vector<int> first_of = output.revisiting_dims;
      first_of.insert(first_of.end(), grid_inner.begin(), grid_inner.end());
      std::vector<std::string> names;
      PyExpr condition;
      for (int g : first_of) {
        const int tile_dim = launch_.grid[static_cast<size_t>(g)].tile_dim;
        names.push_back(kernel_.tile_dims[tile_dim].name);
        const PyExpr first = py_binary("==", geometry_.program_id(tile_dim), py_atom("0"));
        condition = condition.text.empty() ? first : py_binary("&", condition, first);
      }
      out_.comment(
          fmt::format("{}: the steps along {} update one block of `{}`; the first "
                      "copies its old contents in",
                      context_.where(output.operand.range), fmt::join(names, ", "), array));
      out_.line(fmt::format("@pl.when({})", condition.text));
      auto copy = out_.block(fmt::format("def {}():", scope_.fresh("_first_visit")));
      out_.line(fmt::format("{}[...] = {}[...]", ref, alias));
    }
  }

  // The launch dimensions of inner loops that run as grid axes.
  std::vector<int> grid_inner_loop_dims() const {
    std::vector<int> dims;
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (launch_.grid[g].inner_loop >= 0 && schedule_.dim(g).run == passes::DimRun::kGridAxis) {
        dims.push_back(static_cast<int>(g));
      }
    }
    return dims;
  }

  // Outputs stored under a mask keep the array's old values outside the loop's range.
  // The mask is applied only when one of its dimensions can have partial blocks for the shapes
  // being traced (TileGeometry::partial_condition); with a bound known only at run time, always.
  // An output whose block an inner loop stores window by window (`out[tile_b, tile_l,
  // tile_w]` with `tile_w` an inner loop's) gets a mask of unit axes but the masked ones, which
  // broadcasts against each window, and the window of the old values.
  void prepare_store_masks() {
    masks_.resize(launch_.outputs.size());
    mask_guards_.resize(launch_.outputs.size());
    inner_windowed_.assign(launch_.outputs.size(), false);
    std::set<int> inner_dims;
    for (const passes::InnerLoop& inner : launch_.inner_loops) {
      inner_dims.insert(inner.tile_loop().tile_dims.begin(), inner.tile_loop().tile_dims.end());
    }
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      const passes::Output& output = launch_.outputs[o];
      // Its mask reads an inner loop's indices: made at the store, inside the loop.
      if (output.masked_in_place) continue;
      for (const passes::ViewAxis& view : output.operand.view) {
        if (view.kind == passes::ViewAxis::Kind::kTile && inner_dims.count(view.tile_dim)) {
          inner_windowed_[o] = true;
        }
      }
      bool always = false;
      std::optional<PyExpr> guard;
      std::vector<std::optional<PyExpr>> partial;
      for (int axis : output.masked_axes) {
        partial.push_back(geometry_.partial_condition(output.operand.view[axis].tile_dim));
        always = always || !partial.back();
      }
      for (size_t i = 0; i < output.masked_axes.size(); ++i) {
        const int axis = output.masked_axes[i];
        const int tile_dim = output.operand.view[axis].tile_dim;
        int kernel_axis = 0;  // the axis among those the kernel sees
        for (int a = 0; a < axis; ++a) kernel_axis += output.operand.view[a].squeezed ? 0 : 1;
        const std::optional<PyExpr> index_guard = always ? std::nullopt : partial[i];
        std::string shape = names_.outputs[o] + ".shape";
        if (inner_windowed_[o]) {
          std::vector<std::string> dims;
          for (const passes::ViewAxis& view : output.operand.view) {
            if (!view.squeezed) dims.emplace_back("1");
          }
          dims[static_cast<size_t>(kernel_axis)] =
              fmt::format("{}.shape[{}]", names_.outputs[o], kernel_axis);
          shape = dims.size() == 1 ? fmt::format("({},)", dims[0])
                                   : fmt::format("({})", fmt::join(dims, ", "));
        }
        const PyExpr index = geometry_.index(tile_dim, shape, kernel_axis, index_guard);
        PyExpr condition = geometry_.in_range(tile_dim, index);
        if (index_guard) {
          // With several axes, one whose blocks are whole is in range everywhere (its index is
          // None); a lone axis's condition is read only under its own guard.
          if (output.masked_axes.size() > 1) {
            condition = py_conditional(condition, *index_guard, py_atom("True"));
          }
          guard = guard ? py_binary("or", *guard, *index_guard) : *index_guard;
        }
        masks_[o] = masks_[o].text.empty() ? condition : py_binary("&", masks_[o], condition);
      }
      if (!always) mask_guards_[o] = guard;
    }
  }

  // A store through windows of an inner loop that starts inside a block (`hl.tile(
  // outer.begin, outer.end)`): its first and last windows reach rows of the neighbouring outer
  // blocks, which other steps own and which the window's values (computed from loads masked
  // to the loop's range) must not overwrite; those rows keep the block's current contents.
  std::string inside_offset_windows(size_t o, const std::string& window, std::string value) {
    const passes::Output& output = launch_.outputs[o];
    PyExpr inside;
    std::optional<PyExpr> guard;
    bool always = false;
    int kernel_axis = 0;  // the axis among those the kernel sees
    for (const passes::ViewAxis& view : output.operand.view) {
      if (view.squeezed) continue;
      const int axis = kernel_axis++;
      if (view.kind != passes::ViewAxis::Kind::kTile || !geometry_.windowed(view.tile_dim) ||
          !ir::has_begin(kernel_.tile_dims[view.tile_dim])) {
        continue;
      }
      std::vector<std::string> dims;
      for (const passes::ViewAxis& other : output.operand.view) {
        if (!other.squeezed) dims.emplace_back("1");
      }
      dims[static_cast<size_t>(axis)] = geometry_.block(view.tile_dim);
      const std::string shape = dims.size() == 1 ? fmt::format("({},)", dims[0])
                                                 : fmt::format("({})", fmt::join(dims, ", "));
      const PyExpr condition =
          geometry_.in_range(view.tile_dim, geometry_.index(view.tile_dim, shape, axis));
      inside = inside.text.empty() ? condition : py_binary("&", inside, condition);
      if (const std::optional<PyExpr> partial = geometry_.partial_condition(view.tile_dim)) {
        guard = guard ? py_binary("or", *guard, *partial) : *partial;
      } else {
        always = true;
      }
    }
    if (inside.text.empty()) return value;
    const PyExpr kept = py_call("jnp.where", {inside.text, value, names_.outputs[o] + window});
    return always || !guard ? kept.text : py_conditional(kept, *guard, py_atom(value)).text;
  }

  // The mask of an output stored in place (passes::Output::masked_in_place): the elements of
  // its block inside the loops' ranges. Its bounds are known only at run time, so the mask is
  // unconditional.
  PyExpr in_place_mask(size_t o) {
    const passes::Output& output = launch_.outputs[o];
    PyExpr mask;
    for (int axis : output.masked_axes) {
      const int tile_dim = output.operand.view[axis].tile_dim;
      int kernel_axis = 0;  // the axis among those the kernel sees
      for (int a = 0; a < axis; ++a) kernel_axis += output.operand.view[a].squeezed ? 0 : 1;
      // Indices along the masked axis only (unit elsewhere): jnp.where broadcasts them.
      std::vector<std::string> dims;
      for (const passes::ViewAxis& view : output.operand.view) {
        if (!view.squeezed) dims.emplace_back("1");
      }
      dims[static_cast<size_t>(kernel_axis)] = geometry_.block(tile_dim);
      const std::string shape = dims.size() == 1 ? fmt::format("({},)", dims[0])
                                                 : fmt::format("({})", fmt::join(dims, ", "));
      const PyExpr index = geometry_.index(tile_dim, shape, kernel_axis);
      const PyExpr condition = geometry_.in_range(tile_dim, index);
      mask = mask.text.empty() ? condition : py_binary("&", mask, condition);
    }
    return mask;
  }

 private:
  // `target = value`, then the padding of its partial blocks replaced where the schedule says
  // (passes/plan_padding.h: one mask here serves the reductions and products that read it).
  void let(const ir::Let& let, const SourceRange& range) {
    if (let.targets.empty()) {  // a statement for its effect (`print`)
      body_->line(context_.with_where(exprs_.text(let.value), range));
      return;
    }
    const std::string target = let_targets(kernel_, let);
    const bool lane_rows = !let.unpack && schedule_.lane_rows.contains(let.targets[0]);
    const PyExpr value = lane_rows ? exprs_.print_lane_rows(let.value) : exprs_.print(let.value);
    body_->line(context_.with_where(fmt::format("{} = {}", target, value.text), range));
    if (let.unpack) return;
    const ir::Type& type = let.value->type;
    for (size_t axis = 0; axis < type.dims.size(); ++axis) {
      if (type.dims[axis].kind != ir::Dim::Kind::kTile) continue;
      const std::optional<passes::Pad> fill =
          schedule_.definition_mask(let.targets[0], type.dims[axis].tile_dim);
      if (!fill) continue;
      const PyExpr masked = device_.masked_operand(*let.value, py_atom(target),
                                                   static_cast<int>(axis), passes::pad_name(*fill));
      body_->line(fmt::format("{} = {}", target, masked.text));
    }
  }

  void statement(const ir::Stmt& stmt) {
    if (const auto* definition = stmt.as<ir::Let>()) {
      let(*definition, stmt.range);
      return;
    }
    if (const auto* store = stmt.as<ir::Store>()) {
      const int output = launch_.stores.at(store);
      const std::string& ref = names_.outputs[output];
      const passes::Operand& operand = launch_.outputs[output].operand;
      std::string value = picked_value(*store, ref).value_or(stored_value(*store, ref));
      const std::string window = device_.window(ref, operand, &store->index);
      // Pallas refuses an empty slice of a ref; Python stores nothing there.
      const std::string nonempty = device_.sliced_block(ref, operand, store->index).nonempty;
      std::optional<PythonWriter::Block> guard;
      if (!nonempty.empty()) guard.emplace(body_->block(fmt::format("if {}:", nonempty)));
      if (launch_.outputs[output].masked_in_place) {
        masks_[output] = in_place_mask(output);
      }
      value = inside_offset_windows(output, window, value);
      if (!masks_[output].text.empty()) {
        // Outside the loop's range the block keeps the array's old values, or what earlier
        // outer steps wrote into it (passes::Output::masked_in_place). A slice of the block
        // (`out[tile, 16:]`) takes the same slice of the block's mask.
        const std::string sliced = device_.slice_items(store->index).empty() ? "" : window;
        const PyExpr mask = sliced.empty() || inner_windowed_[output]
                                ? masks_[output]
                                : py_atom(py_primary(masks_[output]) + sliced);
        const bool in_place =
            launch_.outputs[output].masked_in_place || launch_.outputs[output].copies_in;
        std::string old = ref + window;
        if (!in_place) {
          const std::string& input = names_.inputs[launch_.outputs[output].aliased_input];
          old = input + (inner_windowed_[output] ? device_.window(input, operand, &store->index)
                         : sliced.empty()        ? "[...]"
                                                 : sliced);
        }
        const PyExpr masked = py_call("jnp.where", {mask.text, value, old});
        value = mask_guards_[output]
                    ? py_conditional(masked, *mask_guards_[output], py_atom(value)).text
                    : masked.text;
      }
      body_->line(context_.with_where(fmt::format("{}{} = {}", ref, window, value), stmt.range));
      return;
    }
    if (const auto* loop = stmt.as<ir::StaticLoop>()) {
      // Python's own loop: JAX unrolls it while tracing; carried names are just rebound.
      const bool unit_step =
          loop->step->as<ir::IntImm>() && loop->step->as<ir::IntImm>()->value == 1;
      const bool zero_start =
          loop->begin->as<ir::IntImm>() && loop->begin->as<ir::IntImm>()->value == 0;
      std::vector<std::string> bounds;
      if (!zero_start || !unit_step) bounds.push_back(exprs_.text(loop->begin));
      bounds.push_back(exprs_.text(loop->end));
      if (!unit_step) bounds.push_back(exprs_.text(loop->step));
      auto block = body_->block(
          context_.with_where(fmt::format("for {} in range({}):", binding_name(kernel_, loop->var),
                                          fmt::join(bounds, ", ")),
                              stmt.range));
      for (const ir::StmtPtr& s : loop->body) statement(*s);
      return;
    }
    if (const auto* loop = stmt.as<ir::TileLoop>()) {
      const auto inner = static_cast<size_t>(inner_index(*loop));
      if (schedule_.strategies[inner] == passes::LoopStrategy::kEmitPipeline) {
        return pipeline_loop(*loop);
      }
      return python_loop(*loop);
    }
    if (const auto* branch = stmt.as<ir::If>()) {
      if (const auto* fixed = branch->condition->as<ir::BoolImm>()) {
        // Decided by unswitching (the host chose this kernel): only the branch taken.
        for (const ir::StmtPtr& s : fixed->value ? branch->then_body : branch->else_body) {
          statement(*s);
        }
        return;
      }
      if (branch->on_device) return guarded_branches(*branch);
      // A static condition: plain Python, decided while the kernel is traced.
      {
        auto then_block = body_->block(
            context_.with_where(fmt::format("if {}:", exprs_.text(branch->condition)), stmt.range));
        for (const ir::StmtPtr& s : branch->then_body) statement(*s);
      }
      if (!branch->else_body.empty()) {
        auto else_block = body_->block("else:");
        for (const ir::StmtPtr& s : branch->else_body) statement(*s);
      }
      return;
    }
    HELIONC_UNREACHABLE("the planner let an unsupported statement into a kernel body");
  }

  // An `if` on a device value (ir::If::on_device): each branch is a function run under
  // `pl.when`. The condition is computed once, before either branch can store into what it
  // reads.
  void guarded_branches(const ir::If& branch) {
    const std::string condition = scope_.fresh("_taken");
    body_->line(context_.with_where(
        fmt::format("{} = {}", condition, exprs_.text(branch.condition)), branch.range));
    const auto run_under = [&](const std::string& when, const ir::Block& stmts, const char* base) {
      body_->line(fmt::format("@pl.when({})", when));
      auto block = body_->block(fmt::format("def {}():", scope_.fresh(base)));
      for (const ir::StmtPtr& s : stmts) statement(*s);
      if (stmts.empty()) body_->line("pass");
    };
    run_under(condition, branch.then_body, "_then");
    if (!branch.else_body.empty()) {
      run_under(fmt::format("jnp.logical_not({})", condition), branch.else_body, "_else");
    }
  }

  // ---- inner loops ------------------------------------------------------------------------

  int inner_index(const ir::TileLoop& loop) const {
    for (size_t i = 0; i < launch_.inner_loops.size(); ++i) {
      if (launch_.inner_loops[i].loop == &loop) return static_cast<int>(i);
    }
    HELIONC_UNREACHABLE("an inner loop the planner did not record");
  }

  const ir::TileLoop* grid_loop() const {
    if (schedule_.grid_loop < 0) return nullptr;
    return launch_.inner_loops[static_cast<size_t>(schedule_.grid_loop)].loop;
  }

  // Names for the schedule's scratch buffers, as kernel parameters in the schedule's order
  // (the launch printer declares them in the same order).
  void name_scratch(std::vector<std::string>& params) {
    using Kind = passes::ScratchBuffer::Kind;
    std::string rows;  // a gather's rows buffer, until its semaphore
    for (const passes::ScratchBuffer& buffer : schedule_.scratch) {
      const auto loop = static_cast<size_t>(buffer.inner_loop);
      const ir::TileLoop* inner = buffer.inner_loop >= 0 ? launch_.inner_loops[loop].loop : nullptr;
      auto carry_name = [&] {
        const int init = inner->carried[static_cast<size_t>(buffer.carry)].init;
        return scope_.fresh(binding_name(kernel_, init) + "_scratch");
      };
      auto dim_name = [&] {
        return safe_local_name(kernel_.tile_dims[inner->tile_dims.front()].name);
      };
      std::string name;
      switch (buffer.kind) {
        case Kind::kGridCarry:
          name = carry_name();
          scratch_[buffer.carry] = name;
          break;
        case Kind::kPipelineCarry:
          name = carry_name();
          dma_[buffer.inner_loop].carries.push_back(name);
          break;
        case Kind::kPipelineStep:
          name = scope_.fresh(dim_name() + "_counter");
          dma_[buffer.inner_loop].counter = name;
          break;
        case Kind::kStreamSlots: {
          const int binding = launch_.inputs[static_cast<size_t>(buffer.input)].operand.binding;
          name = scope_.fresh(binding_name(kernel_, binding) + "_buffers");
          dma_[buffer.inner_loop].buffers.push_back(name);
          break;
        }
        case Kind::kStreamSemaphores:
          name = scope_.fresh(dim_name() + "_copies");
          dma_[buffer.inner_loop].semaphores = name;
          break;
        case Kind::kGatherRows:
        case Kind::kGatherSemaphore: {
          const int binding = launch_.inputs[static_cast<size_t>(buffer.input)].operand.binding;
          const bool is_rows = buffer.kind == Kind::kGatherRows;
          name = scope_.fresh(binding_name(kernel_, binding) + (is_rows ? "_rows" : "_copies"));
          if (is_rows) {
            rows = name;
          } else {
            device_.gather_scratch(buffer.input, rows, name);
          }
          break;
        }
      }
      params.push_back(name);
    }
  }

  // The statements of the launch's body. After an inner loop that runs as the last grid axis,
  // the rest runs once, at the loop's last step.
  void statements(const ir::Block& block) {
    const ir::TileLoop* grid = grid_loop();
    size_t at = 0;
    while (at < block.size() && block[at].get() != grid) ++at;
    const std::set<const ir::Stmt*> first_step = first_step_only(block, at);
    for (size_t i = 0; i < at; ++i) {
      if (first_step.count(block[i].get()) == 0) statement(*block[i]);
    }
    if (at == block.size()) return;
    grid_steps(*grid, block, first_step);
    finish_after(*grid, block, at + 1);
  }

  // The statements before the `grid` loop at `block[at]` whose values only start its carried
  // values (`acc = hl.zeros(...)`): they run in the loop's first step only, not at every grid
  // step. Found backwards, so a statement that only feeds such statements moves too.
  std::set<const ir::Stmt*> first_step_only(const ir::Block& block, size_t at) const {
    std::set<const ir::Stmt*> moved;
    if (at >= block.size() || block[at]->as<ir::TileLoop>()->carried.empty()) return moved;
    for (size_t j = at; j-- > 0;) {
      const auto* let = block[j]->as<ir::Let>();
      if (let == nullptr) continue;
      const std::set<int> targets(let->targets.begin(), let->targets.end());
      bool read_later = false;
      for (size_t k = j + 1; k < block.size() && !read_later; ++k) {
        if (moved.count(block[k].get()) != 0) continue;
        ir::for_each_expr(ir::Block{block[k]}, [&](const ir::Expr& expr) {
          if (const auto* ref = expr.as<ir::VarRef>()) read_later |= targets.count(ref->binding);
        });
      }
      if (!read_later) moved.insert(block[j].get());
    }
    return moved;
  }

  // The body of a `grid` loop: one step per grid index along its axis. The statements before
  // it run again at every step (they only read blocks that stay resident), except those that
  // only start carried values (`first_step`), which run in the first step; carried values
  // start from their value before the loop at the first step and live in VMEM scratch.
  void grid_steps(const ir::TileLoop& loop, const ir::Block& block,
                  const std::set<const ir::Stmt*>& first_step) {
    std::vector<std::string> axes;
    for (int dim : loop.tile_dims) axes.push_back(std::to_string(geometry_.pallas_axis(dim)));
    body_->comment(fmt::format("{}: the loop runs as grid ax{} {} (\"arbitrary\")",
                               context_.where(loop.range), axes.size() == 1 ? "is" : "es",
                               fmt::join(axes, ", ")));
    if (!loop.carried.empty()) {
      body_->line(fmt::format("@pl.when({})", grid_step_condition(loop, false)));
      {
        auto init = body_->block(fmt::format("def {}():", scope_.fresh("_first_step")));
        for (const ir::StmtPtr& stmt : block) {
          if (first_step.count(stmt.get()) != 0) statement(*stmt);
        }
        for (size_t c = 0; c < loop.carried.size(); ++c) {
          body_->line(fmt::format("{}[...] = {}", scratch_.at(static_cast<int>(c)),
                                  binding_name(kernel_, loop.carried[c].init)));
        }
      }
    }
    // A step that leaves its carries unchanged (a key block above the causal diagonal) does
    // not run: the body becomes a function under `pl.when`, taking the values from before the
    // loop as default arguments (so the body may rebind their names).
    std::optional<PythonWriter::Block> skipped;
    if (const std::optional<PyExpr> keep = grid_step_needed(loop)) {
      std::vector<std::string> arguments;
      for (int binding : free_device_values(loop.body)) {
        if (is_carry(loop, binding)) continue;
        const std::string name = binding_name(kernel_, binding);
        const std::string argument = fmt::format("{}={}", name, name);
        if (std::find(arguments.begin(), arguments.end(), argument) == arguments.end()) {
          arguments.push_back(argument);
        }
      }
      body_->line(fmt::format("@pl.when({})", keep->text));
      skipped.emplace(body_->block(
          fmt::format("def {}({}):", scope_.fresh("_step"), fmt::join(arguments, ", "))));
    }
    for (size_t c = 0; c < loop.carried.size(); ++c) {
      body_->line(fmt::format("{} = {}[...]", binding_name(kernel_, loop.carried[c].phi),
                              scratch_.at(static_cast<int>(c))));
    }
    for (const ir::StmtPtr& s : loop.body) statement(*s);
    for (size_t c = 0; c < loop.carried.size(); ++c) {
      body_->line(fmt::format("{}[...] = {}", scratch_.at(static_cast<int>(c)),
                              binding_name(kernel_, loop.carried[c].next)));
    }
  }

  static bool is_carry(const ir::TileLoop& loop, int binding) {
    for (const ir::TileLoop::Carry& carry : loop.carried) {
      if (binding == carry.phi || binding == carry.next || binding == carry.result) return true;
    }
    return false;
  }

  // Whether the current step of the `grid` loop `loop` does work: not when its range is empty
  // (`hl.tile(start, m)` with start == m still runs one grid step, which must leave the carries
  // as they started), nor past the causal diagonal (step_needed); nullopt when every step does.
  std::optional<PyExpr> grid_step_needed(const ir::TileLoop& loop) {
    std::optional<PyExpr> needed = step_needed(inner_index(loop), loop.tile_dims.front());
    if (const std::optional<PyExpr> nonempty = range_nonempty(loop)) {
      needed = needed ? py_binary("&", *nonempty, *needed) : *nonempty;
    }
    return needed;
  }

  // Whether a loop's range holds anything (`start < m`), for loops whose range may be empty
  // (those with a start); nullopt for the others.
  std::optional<PyExpr> range_nonempty(const ir::TileLoop& loop) {
    std::optional<PyExpr> all;
    for (int dim : loop.tile_dims) {
      if (!has_begin(kernel_.tile_dims[dim])) continue;
      const PyExpr part = py_binary("<", geometry_.begin(dim), geometry_.extent(dim));
      all = all ? py_binary("&", *all, part) : part;
    }
    return all;
  }

  // Whether the current block of inner loop `inner` (over `tile_dim`) does work: false for a
  // block that lies past the last element its mask keeps (passes::StepSkip); nullopt when the
  // loop skips no steps.
  std::optional<PyExpr> step_needed(int inner, int tile_dim) {
    const std::optional<passes::StepSkip>& skip =
        launch_.inner_loops[static_cast<size_t>(inner)].skip;
    if (!skip) return std::nullopt;
    return py_binary("<", geometry_.start(tile_dim), kept_end(*skip));
  }

  // One past the last element of the inner axis that the mask keeps for some row of the outer
  // block: `tile_m_start + block_m` (plus the mask's offset).
  PyExpr kept_end(const passes::StepSkip& skip) {
    PyExpr end =
        py_binary("+", geometry_.start(skip.outer_dim), py_atom(geometry_.block(skip.outer_dim)));
    if (skip.offset > 0) end = py_binary("+", end, py_atom(std::to_string(skip.offset)));
    return end;
  }

  // Whether this grid step is the `grid` loop's first (or `last`): for a loop over several
  // dimensions, the first (last) block along every one of them.
  std::string grid_step_condition(const ir::TileLoop& loop, bool last) {
    std::vector<PyExpr> parts;
    for (int dim : loop.tile_dims) {
      const PyExpr id = geometry_.program_id(dim);
      parts.push_back(py_binary(
          "==", id,
          last ? py_binary("-", geometry_.block_count(dim), py_atom("1")) : py_atom("0")));
    }
    PyExpr condition = parts.front();
    for (size_t i = 1; i < parts.size(); ++i) {
      condition = py_binary("&", condition, parts[i]);
    }
    return condition.text;
  }

  // The statements after a `grid` loop, in a function run at its last step. Values from before
  // come in as default arguments, so the body may rebind their names.
  void finish_after(const ir::TileLoop& loop, const ir::Block& block, size_t from) {
    if (from >= block.size()) return;
    const ir::Block rest(block.begin() + static_cast<std::ptrdiff_t>(from), block.end());
    // The carries are read back from their scratch, which holds them after every step: when
    // steps may be skipped the last step's values were not computed, and a value passed in
    // across the `pl.when` makes the TPU compiler hold it in VMEM besides the scratch (up to
    // 0.9 of a float32 accumulator; measured with libtpu, tpu7x, a 512x1024 block).
    const bool from_scratch = !loop.carried.empty();
    std::vector<std::string> arguments;
    for (int binding : free_device_values(rest)) {
      if (from_scratch && is_carry(loop, binding)) continue;
      const std::string name = binding_name(kernel_, binding);
      const std::string argument = fmt::format("{}={}", name, name);
      if (std::find(arguments.begin(), arguments.end(), argument) == arguments.end()) {
        arguments.push_back(argument);
      }
    }
    body_->line(fmt::format("@pl.when({})", grid_step_condition(loop, true)));
    auto finish = body_->block(
        fmt::format("def {}({}):", scope_.fresh("_last_step"), fmt::join(arguments, ", ")));
    if (from_scratch) {
      for (size_t c = 0; c < loop.carried.size(); ++c) {
        body_->line(fmt::format("{} = {}[...]", binding_name(kernel_, loop.carried[c].result),
                                scratch_.at(static_cast<int>(c))));
      }
    }
    for (const ir::StmtPtr& s : rest) statement(*s);
  }

  // Device values that `block` reads but does not define, in order of first use.
  std::vector<int> free_device_values(const ir::Block& block) const {
    std::vector<int> read;
    std::set<int> defined;
    struct Collector : ir::Visitor {
      const ir::Kernel* kernel;
      std::vector<int>* read;
      std::set<int>* defined;
      void note(int binding) {
        if (kernel->bindings[binding].origin == ir::Binding::Origin::kDevice) {
          read->push_back(binding);
        }
      }
      void visit_node(const ir::VarRef& node) override { note(node.binding); }
      void visit_node(const ir::Let& node) override {
        ir::Visitor::visit_node(node);
        defined->insert(node.targets.begin(), node.targets.end());
      }
      void carries(const std::vector<ir::TileLoop::Carry>& carried) {
        for (const ir::TileLoop::Carry& carry : carried) {
          note(carry.init);
          defined->insert({carry.phi, carry.next, carry.result});
        }
      }
      void visit_node(const ir::TileLoop& node) override {
        carries(node.carried);
        ir::Visitor::visit_node(node);
      }
      void visit_node(const ir::If& node) override {
        ir::Visitor::visit_node(node);
        for (const ir::If::Merge& merge : node.merges) defined->insert(merge.result);
      }
      void visit_node(const ir::StaticLoop& node) override {
        defined->insert(node.var);
        carries(node.carried);
        ir::Visitor::visit_node(node);
      }
    } collector;
    collector.kernel = &kernel_;
    collector.read = &read;
    collector.defined = &defined;
    collector.visit(block);
    std::vector<int> free;
    for (int binding : read) {
      if (!defined.count(binding)) free.push_back(binding);
    }
    return free;
  }

  // The text of `loop`'s statements, one step's, without its loop-invariant `let`s (printed
  // before the loop: hoisted_statements) and reading its invariant parts by their names, which
  // are forgotten after; no trailing newline.
  std::string loop_statements(int inner, const ir::TileLoop& loop) {
    std::string text = printed([&] {
      for (const ir::StmtPtr& s : loop.body) {
        if (!schedule_.hoisted_from(static_cast<size_t>(inner), s.get())) statement(*s);
      }
    });
    if (static_cast<size_t>(inner) < schedule_.hoisted.size()) {
      for (const passes::HoistedValue& value : schedule_.hoisted[static_cast<size_t>(inner)]) {
        if (value.expr) exprs_.unname(*value.expr);
      }
    }
    return text;
  }

  // What `print` writes to the body, as text of its own with no trailing newline.
  template <typename Print>
  std::string printed(Print&& print) {
    PythonWriter text;
    PythonWriter* outer = body_;
    body_ = &text;
    print();
    body_ = outer;
    std::string lines = text.str();
    if (!lines.empty()) lines.pop_back();
    return lines;
  }

  // The values the schedule computes once before inner loop `inner` (passes/plan_hoists.h): its
  // invariant `let`s, and invariant parts of other statements under fresh names, which those
  // statements then read. Text with no trailing newline, printed before the loop's step
  // function; written while only the outer loops' geometry is open, as they read none of the
  // loop's. Nothing under `grid`.
  std::string hoisted_statements(int inner) {
    const auto index = static_cast<size_t>(inner);
    if (index >= schedule_.hoisted.size() || schedule_.hoisted[index].empty()) return {};
    return printed([&] {
      for (const passes::HoistedValue& value : schedule_.hoisted[index]) {
        if (value.let != nullptr) {
          statement(*value.let);
          continue;
        }
        const std::string name = scope_.fresh("_invariant");
        body_->line(context_.with_where(fmt::format("{} = {}", name, exprs_.text(value.expr)),
                                        value.expr->range));
        exprs_.name(*value.expr, name);
      }
    });
  }

  // An inner loop run as a Python-level `jax.lax.fori_loop` over windows of blocks resident in
  // VMEM (the `unroll` strategy): carried values are the loop's carry.
  void python_loop(const ir::TileLoop& loop) {
    const int inner = inner_index(loop);
    const int dim = loop.tile_dims.front();
    const std::string dim_name = safe_local_name(kernel_.tile_dims[dim].name);
    const std::string step = scope_.fresh(dim_name + (loop.tile_dims.size() > 1 ? "_flat" : "_id"));
    const std::string function = scope_.fresh(dim_name + "_step");
    std::vector<std::string> phis;
    std::vector<std::string> nexts;
    for (const ir::TileLoop::Carry& carry : loop.carried) {
      phis.push_back(binding_name(kernel_, carry.phi));
      nexts.push_back(binding_name(kernel_, carry.next));
    }
    const auto joined = [](const std::vector<std::string>& names) {
      return names.empty() ? std::string("carry") : fmt::format("{}", fmt::join(names, ", "));
    };

    auto [first, steps] = block_range(dim);
    const std::string hoisted = hoisted_statements(inner);

    // A loop over several dimensions (`hl.tile([m, n])`) steps through the blocks of all of
    // them, the last fastest: one flat step, split into a block number per dimension.
    std::map<int, std::string> dim_steps = {{dim, step}};
    std::vector<std::string> split_lines;
    if (loop.tile_dims.size() > 1) {
      dim_steps.clear();
      std::vector<std::string> counts;
      std::vector<std::string> firsts;
      for (int d : loop.tile_dims) {
        const auto [first_d, end_d] = block_range(d);
        counts.push_back(scope_.fresh(safe_local_name(kernel_.tile_dims[d].name) + "_blocks"));
        firsts.push_back(first_d);
        body_->line(fmt::format(
            "{} = {}", counts.back(),
            first_d == "0" ? end_d : py_binary("-", py_atom(end_d), py_atom(first_d)).text));
      }
      std::string stride;  // the product of the counts after dimension k
      for (size_t k = loop.tile_dims.size(); k-- > 0;) {
        const int d = loop.tile_dims[k];
        PyExpr id = py_atom(step);
        if (!stride.empty()) id = py_binary("//", id, py_atom(stride));
        if (k > 0) id = py_binary("%", id, py_atom(counts[k]));
        if (firsts[k] != "0") id = py_binary("+", py_atom(firsts[k]), id);
        dim_steps[d] = scope_.fresh(safe_local_name(kernel_.tile_dims[d].name) + "_id");
        split_lines.insert(split_lines.begin(), fmt::format("{} = {}", dim_steps[d], id.text));
        stride =
            stride.empty() ? counts[k] : py_binary("*", py_atom(counts[k]), py_atom(stride)).text;
      }
      first = "0";
      steps = stride;
    }
    geometry_.open_loop(inner, dim_steps);
    const auto dma = dma_.find(inner);
    std::string slot;
    if (dma != dma_.end()) {
      slot = scope_.fresh(dim_name + "_slot");
      const passes::InnerLoop& info = launch_.inner_loops[static_cast<size_t>(inner)];
      for (size_t b = 0; b < info.streamed_inputs.size(); ++b) {
        device_.stream(info.streamed_inputs[b],
                       fmt::format("{}[{}]", dma->second.buffers[b], slot));
      }
    }
    const std::string text = loop_statements(inner, loop);
    std::vector<std::string> lines = geometry_.close_loop(inner);
    lines.insert(lines.begin(), split_lines.begin(), split_lines.end());
    DmaNames names;
    if (dma != dma_.end()) {
      names = dma_prologue(inner, dim, first, steps, dma->second);
      lines.insert(lines.begin(), dma_step_lines(names, step, slot));
      device_.stop_streaming();
    }

    if (!hoisted.empty()) body_->line(hoisted);
    {
      auto def = body_->block(fmt::format("def {}({}, carry):", function, step));
      if (!phis.empty()) body_->line(fmt::format("{} = carry", joined(phis)));
      for (const std::string& line : lines) body_->line(line);
      if (!text.empty()) body_->line(text);
      body_->line(fmt::format("return {}", joined(nexts)));
    }
    const std::string initial = phis.empty()       ? "None"
                                : phis.size() == 1 ? phis.front()
                                                   : py_tuple(phis);
    const std::string call =
        fmt::format("jax.lax.fori_loop({}, {}, {}, {})", names.first.empty() ? first : names.first,
                    names.last.empty() ? steps : names.last, function, initial);
    std::vector<std::string> results;
    for (const ir::TileLoop::Carry& carry : loop.carried) {
      results.push_back(binding_name(kernel_, carry.result));
    }
    body_->line(context_.with_where(
        results.empty() ? call : fmt::format("{} = {}", fmt::join(results, ", "), call),
        loop.range));
  }

  // An inner loop run by `pltpu.emit_pipeline` (the `emit_pipeline` strategy): Pallas streams
  // the blocks of its inputs from HBM, double-buffered, and calls the step function on each;
  // carried values live in VMEM scratch and the step's block number in SMEM meanwhile.
  void pipeline_loop(const ir::TileLoop& loop) {
    const int inner = inner_index(loop);
    const passes::InnerLoop& info = launch_.inner_loops[static_cast<size_t>(inner)];
    const Dma& scratch = dma_.at(inner);
    const int dim = loop.tile_dims.front();
    const std::string dim_name = safe_local_name(kernel_.tile_dims[dim].name);
    const std::string step = scope_.fresh(dim_name + "_id");
    const std::string function = scope_.fresh(dim_name + "_step");
    const auto [first, steps] = block_range(dim);
    const std::string hoisted = hoisted_statements(inner);

    // The pipeline's blocks: the loop's own dimension moves, the outer tile's stay. Index maps
    // run in the pipeline's own grid, so the outer blocks' numbers are taken before it.
    const std::string pipeline_index = scope_.fresh("j");
    std::map<int, std::string> outer_blocks;
    std::vector<std::string> before;
    const auto outer_block = [&](int tile_dim) {
      auto it = outer_blocks.find(tile_dim);
      if (it != outer_blocks.end()) return it->second;
      const std::string name =
          scope_.fresh(safe_local_name(kernel_.tile_dims[tile_dim].name) + "_block");
      before.push_back(fmt::format("{} = {}", name, geometry_.block_index(tile_dim).text));
      return outer_blocks.emplace(tile_dim, name).first->second;
    };
    std::vector<std::string> block_params;
    std::vector<std::string> specs;
    std::vector<std::string> refs;
    for (int input : info.streamed_inputs) {
      const passes::Operand& operand = launch_.inputs[static_cast<size_t>(input)].operand;
      const std::string& ref = names_.inputs[static_cast<size_t>(input)];
      block_params.push_back(scope_.fresh(binding_name(kernel_, operand.binding) + "_block"));
      device_.stream(input, block_params.back() + "[...]");
      std::vector<std::string> shape;
      std::vector<std::string> index;
      for (size_t a = 0; a < operand.view.size(); ++a) {
        const passes::ViewAxis& axis = operand.view[a];
        if (axis.kind != passes::ViewAxis::Kind::kTile) {
          shape.push_back(fmt::format("{}.shape[{}]", ref, a));
          index.emplace_back("0");
          continue;
        }
        shape.push_back(geometry_.block(axis.tile_dim));
        const std::string number =
            axis.tile_dim == dim
                ? (first == "0" ? pipeline_index
                                : py_binary("+", py_atom(pipeline_index), py_atom(first)).text)
                : outer_block(axis.tile_dim);
        index.push_back(device_.block_at(number, shape.back(), ref, a));
      }
      specs.push_back(fmt::format("pl.BlockSpec(block_shape={}, index_map=lambda {}: {})",
                                  py_tuple(shape), pipeline_index, py_tuple(index)));
      refs.push_back(ref);
    }

    geometry_.open_loop(inner, {{dim, step}});
    const std::string text = loop_statements(inner, loop);
    const std::vector<std::string> lines = geometry_.close_loop(inner);
    device_.stop_streaming();

    body_->comment(fmt::format("{}: pltpu.emit_pipeline streams the blocks of {} from HBM",
                               context_.where(loop.range), fmt::join(refs, ", ")));
    for (const std::string& line : before) body_->line(line);
    for (size_t c = 0; c < loop.carried.size(); ++c) {
      body_->line(fmt::format("{}[...] = {}", scratch.carries[c],
                              binding_name(kernel_, loop.carried[c].init)));
    }
    body_->line(fmt::format("{}[0] = {}", scratch.counter, first));
    if (!hoisted.empty()) body_->line(hoisted);
    {
      auto def = body_->block(fmt::format("def {}({}):", function, fmt::join(block_params, ", ")));
      body_->line(fmt::format("{} = {}[0]", step, scratch.counter));
      for (size_t c = 0; c < loop.carried.size(); ++c) {
        body_->line(fmt::format("{} = {}[...]", binding_name(kernel_, loop.carried[c].phi),
                                scratch.carries[c]));
      }
      for (const std::string& line : lines) body_->line(line);
      if (!text.empty()) body_->line(text);
      for (size_t c = 0; c < loop.carried.size(); ++c) {
        body_->line(fmt::format("{}[...] = {}", scratch.carries[c],
                                binding_name(kernel_, loop.carried[c].next)));
      }
      body_->line(fmt::format("{}[0] = {} + 1", scratch.counter, step));
    }
    const std::string grid =
        first == "0" ? steps : py_binary("-", py_atom(steps), py_atom(first)).text;
    context_.imports.helpers.insert("pipeline");
    body_->line(context_.with_where(fmt::format("_emit_pipeline({}, ({},), [{}], {})", function,
                                                grid, fmt::join(specs, ", "), py_tuple(refs)),
                                    loop.range));
    for (size_t c = 0; c < loop.carried.size(); ++c) {
      body_->line(fmt::format("{} = {}[...]", binding_name(kernel_, loop.carried[c].result),
                              scratch.carries[c]));
    }
  }

  // The block numbers an inner loop over `tile_dim` visits: `begin // block` (or 0) up to
  // `pl.cdiv(end, block)`; 0 up to `pl.cdiv(end - begin, block)` for a paired loop, whose
  // blocks start at its begin (TileGeometry::start).
  std::pair<std::string, std::string> block_range(int tile_dim) {
    const std::string block = geometry_.block(tile_dim);
    const bool paired = geometry_.paired(tile_dim);
    const std::optional<PyExpr> first_block = geometry_.first_block(tile_dim);
    const std::string first = first_block ? first_block->text : "0";
    const std::string steps =
        py_call("pl.cdiv", {geometry_.first_block_to_end(tile_dim).text, block}).text;
    const int inner = launch_.grid[geometry_.grid_axis(tile_dim)].inner_loop;
    const std::optional<passes::StepSkip>& skip =
        launch_.inner_loops[static_cast<size_t>(inner)].skip;
    if (!skip) return {first, steps};
    // Blocks past the last one the mask keeps anything of do nothing: the loop stops before.
    PyExpr kept = kept_end(*skip);
    if (paired) kept = py_binary("-", kept, geometry_.begin(tile_dim));
    const std::string needed = py_call("pl.cdiv", {kept.text, block}).text;
    return {first, py_call("jnp.minimum", {steps, needed}).text};
  }

  struct DmaNames {
    std::string copies;  // the function making a step's copy descriptors
    std::string first, last, slots;
  };

  // A `fori_loop` inner loop copies its inputs' blocks from HBM into `slots` VMEM buffers by
  // hand, `slots - 1` blocks ahead of the step computing on them. Before the loop: the
  // function describing one step's copies, and the copies of the first blocks.
  DmaNames dma_prologue(int inner, int dim, const std::string& first, const std::string& steps,
                        const Dma& dma) {
    const std::string dim_name = safe_local_name(kernel_.tile_dims[dim].name);
    DmaNames names;
    names.copies = scope_.fresh(dim_name + "_dma");
    names.first = scope_.fresh(dim_name + "_first");
    names.last = scope_.fresh(dim_name + "_end");
    names.slots = scope_.fresh(dim_name + "_slots");
    const passes::InnerLoop& info = launch_.inner_loops[static_cast<size_t>(inner)];
    body_->comment(fmt::format(
        "{}: blocks of {} are copied from HBM into {} VMEM slots, one step ahead per extra slot",
        context_.where(info.loop->range), fmt::join(dma.buffers, ", "), names.slots));
    const std::string block_index = scope_.fresh(dim_name + "_block");
    const std::string slot = scope_.fresh("slot");
    {
      auto def = body_->block(fmt::format("def {}({}, {}):", names.copies, block_index, slot));
      std::vector<std::string> copies;
      for (size_t b = 0; b < info.streamed_inputs.size(); ++b) {
        const int input = info.streamed_inputs[b];
        const passes::Operand& operand = launch_.inputs[static_cast<size_t>(input)].operand;
        std::vector<std::string> window;
        for (const passes::ViewAxis& axis : operand.view) {
          if (axis.kind != passes::ViewAxis::Kind::kTile) {
            window.emplace_back(":");
            continue;
          }
          const std::string size = geometry_.block(axis.tile_dim);
          PyExpr own = py_binary("*", py_atom(block_index), py_atom(size));
          // A paired loop's blocks start at its begin; the input is padded by a block past
          // its end on the host (passes::OperandSchedule::pad_past_end).
          if (geometry_.paired(dim)) own = py_binary("+", geometry_.begin(dim), own);
          const std::string start =
              axis.tile_dim == dim ? own.text : geometry_.start(axis.tile_dim).text;
          window.push_back(
              py_call("pl.ds",
                      {device_.block_at(start, size, names_.inputs[static_cast<size_t>(input)],
                                        window.size()),
                       size})
                  .text);
        }
        copies.push_back(fmt::format("pltpu.make_async_copy({}.at[{}], {}.at[{}], {}.at[{}, {}])",
                                     names_.inputs[static_cast<size_t>(input)],
                                     fmt::join(window, ", "), dma.buffers[b], slot, dma.semaphores,
                                     b, slot));
      }
      body_->line(fmt::format("return {}", py_tuple(copies)));
    }
    body_->line(fmt::format("{} = {}", names.first, first));
    body_->line(fmt::format("{} = {}", names.last, steps));
    body_->line(fmt::format("{} = {}.shape[0]", names.slots, dma.buffers.front()));
    const std::string ahead = scope_.fresh("ahead");
    auto prologue = body_->block(fmt::format("for {} in range({} - 1):", ahead, names.slots));
    body_->line(fmt::format("@pl.when({} + {} < {})", names.first, ahead, names.last));
    auto start = body_->block(fmt::format("def {}():", scope_.fresh("_prefetch")));
    auto copies = body_->block(
        fmt::format("for copy in {}({} + {}, {}):", names.copies, names.first, ahead, ahead));
    body_->line("copy.start()");
    return names;
  }

  // At the top of a step: start the copy `slots - 1` blocks ahead, then wait for this step's.
  std::string dma_step_lines(const DmaNames& names, const std::string& step,
                             const std::string& slot) {
    const std::string ahead = scope_.fresh("ahead");
    return fmt::format(
        "{slot} = ({step} - {first}) % {slots}\n"
        "{ahead} = {step} + {slots} - 1\n"
        "@pl.when({ahead} < {last})\n"
        "def {prefetch}():\n"
        "    for copy in {copies}({ahead}, ({slot} + {slots} - 1) % {slots}):\n"
        "        copy.start()\n"
        "for copy in {copies}({step}, {slot}):\n"
        "    copy.wait()",
        fmt::arg("slot", slot), fmt::arg("step", step), fmt::arg("first", names.first),
        fmt::arg("slots", names.slots), fmt::arg("ahead", ahead), fmt::arg("last", names.last),
        fmt::arg("prefetch", scope_.fresh("_prefetch")), fmt::arg("copies", names.copies));
  }

  // The shape stored to: the block, a slice of it (`out[tile, 16:]`), or a window of it (an
  // inner loop's resident block).
  std::string stored_shape(const ir::Store& store, const std::string& ref) {
    const passes::Operand& operand = launch_.outputs[launch_.stores.at(&store)].operand;
    if (!device_.slice_items(store.index).empty()) {
      return device_.sliced_block(ref, operand, store.index).shape;
    }
    if (device_.window(ref, operand) != "[...]") {
      if (std::optional<std::string> window = device_.dims_shape(stored_dims(store))) {
        return *window;
      }
      // Some whole axis's length is not captured: the ref's own, with the windowed axes' block.
      std::vector<std::string> sizes;
      for (const passes::ViewAxis& axis : operand.view) {
        if (axis.squeezed) continue;
        const bool window = axis.kind == passes::ViewAxis::Kind::kTile &&
                            geometry_.windowed(axis.tile_dim) && device_.has_block(axis.tile_dim);
        sizes.push_back(window ? geometry_.block(axis.tile_dim)
                               : fmt::format("{}.shape[{}]", ref, sizes.size()));
      }
      return py_tuple(sizes);
    }
    return ref + ".shape";
  }

  // The block after a store that picks elements of it (passes::Output::picks): the value
  // written at them with a select (`_put`, which casts and broadcasts). Nullopt when the store
  // picks none (`:` on every picked axis): a plain store.
  std::optional<std::string> picked_value(const ir::Store& store, const std::string& ref) {
    const passes::Operand& operand = launch_.outputs[launch_.stores.at(&store)].operand;
    if (std::optional<std::string> scattered = scattered_value(store, ref, operand)) {
      return scattered;
    }
    if (std::optional<std::string> spread = spread_value(store, ref, operand)) return spread;
    HELIONC_CHECK(!store.accumulate, "a scatter-add is planned as a scatter");
    const auto picks = device_.picks(operand, store.index);
    if (picks.empty()) return std::nullopt;
    context_.imports.helpers.insert("picks");
    std::vector<std::string> pairs;
    pairs.reserve(picks.size());
    for (const auto& [axis, index] : picks) pairs.push_back(fmt::format("({}, {})", axis, index));
    return py_call("_put", {ref + device_.window(ref, operand, &store.index),
                            exprs_.print(store.value).text, py_tuple(pairs)})
        .text;
  }

  // The block after a store through a tile of indices (passes::ViewAxis::gather on an
  // output): `_scatter` along the gathered kernel axis, the padding of a partial block of the
  // indices masked out; through two (both axes of a 2-D array, passes::cartesian_scatter),
  // `_scatter_cartesian`. Nullopt for other stores.
  std::optional<std::string> scattered_value(const ir::Store& store, const std::string& ref,
                                             const passes::Operand& operand) {
    std::vector<int> kernel_axes;
    std::vector<const ir::ExprPtr*> ids;
    int kernel_axis = 0;
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.gather) {
        kernel_axes.push_back(kernel_axis);
        ids.push_back(&store.index[static_cast<size_t>(axis.array_axis)].scalar);
      }
      kernel_axis += axis.squeezed ? 0 : 1;
    }
    if (ids.empty()) return std::nullopt;
    if (ids.size() == 1) {
      return scatter(ref, operand, kernel_axes[0], exprs_.text(*ids[0]), tile_of(*ids[0]), store);
    }
    HELIONC_CHECK(ids.size() == 2 && kernel_axes == std::vector<int>({0, 1}),
                  "plan_views admits two tiles of indices for both axes of a 2-D array only");
    context_.imports.helpers.insert("scatter_cartesian");
    std::vector<std::string> args = {
        ref + device_.window(ref, operand, &store.index),
        py_tuple({exprs_.text(*ids[0]), exprs_.text(*ids[1])}), exprs_.print(store.value).text,
        py_tuple({scatter_valid(tile_of(*ids[0])).text, scatter_valid(tile_of(*ids[1])).text})};
    add_scatter_helpers(store, args);
    return py_call("_scatter_cartesian", args).text;
  }

  // The tile dimension of the first dimension of a tile of indices, or -1.
  static int tile_of(const ir::ExprPtr& ids) {
    const ir::Dim& dim = ids->type.dims.front();
    return dim.kind == ir::Dim::Kind::kTile ? dim.tile_dim : -1;
  }

  // Which indices of a tile of indices along tile dimension `tile_dim` (-1: none) lie in their
  // loop's range: the padding of a partial block stores nothing. `None` when all do.
  PyExpr scatter_valid(int tile_dim) {
    if (tile_dim < 0) return py_atom("None");
    const std::optional<PyExpr> partial = geometry_.partial_condition(tile_dim);
    const std::string shape = py_tuple({geometry_.block(tile_dim)});
    const PyExpr in_range =
        geometry_.in_range(tile_dim, geometry_.index(tile_dim, shape, 0, partial));
    return partial ? py_conditional(in_range, *partial, py_atom("None")) : in_range;
  }

  // The helpers `_scatter` needs, and `add=True` for a scatter-add (ir::Store::accumulate).
  void add_scatter_helpers(const ir::Store& store, std::vector<std::string>& args) {
    context_.imports.helpers.insert("scatter");
    context_.imports.helpers.insert("gather");  // `_check_one_hot`
    context_.imports.helpers.insert("dot");
    if (store.accumulate) args.push_back("add=True");  // every element adds
  }

  // The block after a store that scatters along a picked axis (passes/plan_picks.h: the other
  // stores index that axis differently): at a tile's indices (`out[b, tile_n]` beside
  // `out[b, n - 1]`) or at a tile of indices (`out[tile.index + k]` beside `out[tile]`).
  // Nullopt for other stores.
  std::optional<std::string> spread_value(const ir::Store& store, const std::string& ref,
                                          const passes::Operand& operand) {
    int kernel_axis = 0;
    for (const passes::ViewAxis& axis : operand.view) {
      const int k = kernel_axis;
      kernel_axis += axis.squeezed ? 0 : 1;
      if (!axis.picked) continue;
      const ir::IndexItem& item = store.index[static_cast<size_t>(axis.array_axis)];
      if (item.kind == ir::IndexItem::Kind::kTile) {
        const int t = item.tile_dim;
        const PyExpr ids = geometry_.index(t, py_tuple({geometry_.block(t)}), 0);
        return scatter(ref, operand, k, ids.text, t, store);
      }
      if (item.kind == ir::IndexItem::Kind::kGather) {
        return scatter(ref, operand, k, exprs_.text(item.scalar), tile_of(item.scalar), store);
      }
    }
    return std::nullopt;
  }

  // `_scatter` of the store's value into the block along kernel axis `kernel_axis` at `ids`,
  // whose first dimension is tile dimension `tile_dim` (-1: none): the indices of a partial
  // block's padding store nothing. The block is the part of the ref the store writes (an inner
  // loop's window of a resident block: `C_ref[:, pl.ds(tile_n_start, block_n)]`).
  std::string scatter(const std::string& ref, const passes::Operand& operand, int kernel_axis,
                      const std::string& ids, int tile_dim, const ir::Store& store) {
    std::vector<std::string> args = {ref + device_.window(ref, operand, &store.index),
                                     std::to_string(kernel_axis), ids,
                                     exprs_.print(store.value).text, scatter_valid(tile_dim).text};
    add_scatter_helpers(store, args);
    return py_call("_scatter", args).text;
  }

  // The value of a store, broadcast to the block and cast to the array's dtype as needed.
  std::string stored_value(const ir::Store& store, const std::string& ref) {
    const ir::Type& type = store.value->type;
    PyExpr value = exprs_.print(store.value);
    const std::string shape = stored_shape(store, ref);
    if (type.kind != ir::TypeKind::kTileTensor) {
      return py_call("jnp.full", {shape, value.text, ref + ".dtype"}).text;
    }
    const auto* tensor = store.tensor->as<ir::VarRef>();
    const std::vector<ir::Dim> target = stored_dims(store);
    if (!type.variadic && type.dims.size() > target.size()) {
      // PyTorch drops leading unit axes when storing (`out[i, :] = row[None, :]`).
      value = py_atom(fmt::format("{}.reshape({})", py_primary(value), shape));
    } else if (!same_dims(type.dims, target)) {
      value = py_call("jnp.broadcast_to", {value.text, shape});
    }
    const std::optional<ir::ScalarType> array_dtype = kernel_.bindings[tensor->binding].type.dtype;
    if (type.dtype && array_dtype && *type.dtype == *array_dtype) return value.text;
    if (const auto* cast = store.value->as<ir::Call>(); cast && cast->op == ir::Intrinsic::kCast) {
      // `.to(out.dtype)`, or `.to(x.dtype)` into an array allocated with x's dtype.
      const std::string key = dtype_key(cast->args[1]);
      if (!key.empty() && key == binding_dtype_key(tensor->binding)) return value.text;
    }
    // `.to(out.dtype)` of a view of `out` prints as this very cast already.
    const std::string cast = fmt::format(".astype({}.dtype)", ref);
    if (value.prec == Prec::kPrimary && value.text.ends_with(cast)) return value.text;
    return fmt::format("{}{}", py_primary(value), cast);
  }

  // A name for a dtype that is the same for equal dtypes ("" when unknown): `float32`, or the
  // parameter whose dtype it is.
  std::string dtype_key(const ir::ExprPtr& dtype) const {
    if (const auto* imm = dtype->as<ir::DtypeImm>()) return std::string(ir::dtype_name(imm->dtype));
    const auto* call = dtype->as<ir::Call>();
    if (call && call->op == ir::Intrinsic::kDtypeOf) {
      if (const auto* ref = call->args[0]->as<ir::VarRef>()) return binding_dtype_key(ref->binding);
    }
    return "";
  }

  std::string binding_dtype_key(int binding) const {
    const ir::Binding& b = kernel_.bindings[binding];
    if (b.type.dtype) return std::string(ir::dtype_name(*b.type.dtype));
    if (const ir::Stmt* def = facts_.definition(binding)) {
      if (const auto* alloc = def->as<ir::Alloc>()) return dtype_key(alloc->dtype);
      const auto* let = def->as<ir::Let>();
      if (!let->unpack) {
        if (const auto* ref = let->value->as<ir::VarRef>()) return binding_dtype_key(ref->binding);
      }
      return "";
    }
    return fmt::format("dtype of {}", binding);
  }

  // The shape a store's index selects, as tile-tensor dims.
  std::vector<ir::Dim> stored_dims(const ir::Store& store) const {
    const int binding = store.tensor->as<ir::VarRef>()->binding;
    std::vector<ir::Dim> dims;
    int axis = 0;
    for (const ir::IndexItem& item : store.index) {
      switch (item.kind) {
        case ir::IndexItem::Kind::kTile:
          dims.push_back(ir::Dim::tile(item.tile_dim));
          ++axis;
          break;
        case ir::IndexItem::Kind::kVariadic:
          dims.push_back(ir::Dim::variadic(item.tile_dim));
          break;
        case ir::IndexItem::Kind::kFull:
          dims.push_back(ir::Dim::full(binding, axis++));
          break;
        case ir::IndexItem::Kind::kSlice:
          dims.push_back(ir::Dim::sliced(binding, axis++, item.slice));
          break;
        case ir::IndexItem::Kind::kNewAxis:
          dims.push_back(ir::Dim::unit());
          break;
        case ir::IndexItem::Kind::kScalar:
          ++axis;
          break;
        case ir::IndexItem::Kind::kGather:
          for (const ir::Dim& dim : item.scalar->type.dims) dims.push_back(dim);
          ++axis;
          break;
      }
    }
    for (int rank = kernel_.bindings[binding].type.rank; axis < rank; ++axis) {
      dims.push_back(ir::Dim::full(binding, axis));
    }
    return dims;
  }

  bool same_dims(const std::vector<ir::Dim>& a, const std::vector<ir::Dim>& b) const {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].kind != b[i].kind) return false;
      if (a[i].kind == ir::Dim::Kind::kFull) {
        if (!(facts_.axis_size(a[i].binding, a[i].axis) ==
              facts_.axis_size(b[i].binding, b[i].axis))) {
          return false;
        }
      } else if (a[i].kind == ir::Dim::Kind::kSlice) {
        // `dst[tile, :8] = src[tile, :8]`: the same bounds of axes of one size.
        const ir::SliceBounds& sa = kernel_.slices[static_cast<size_t>(a[i].slice)];
        const ir::SliceBounds& sb = kernel_.slices[static_cast<size_t>(b[i].slice)];
        if (ir::print_slice_bounds(kernel_, sa) != ir::print_slice_bounds(kernel_, sb) ||
            !(facts_.axis_size(a[i].binding, a[i].axis) ==
              facts_.axis_size(b[i].binding, b[i].axis))) {
          return false;
        }
      } else if (a[i].kind == ir::Dim::Kind::kComputed) {
        if (a[i].size != b[i].size) return false;
      } else if (a[i].kind == ir::Dim::Kind::kTilePart) {
        if (a[i] != b[i]) return false;
      } else if (a[i].tile_dim != b[i].tile_dim) {
        return false;
      }
    }
    return true;
  }

  PythonWriter& out_;
  EmitContext& context_;
  const ir::Kernel& kernel_;
  const passes::ShapeFacts& facts_;
  const Launch& launch_;
  const LaunchNames& names_;
  const LoopTypes& types_;
  const passes::LaunchSchedule schedule_;  // of the variant printed
  std::string function_;
  NameScope scope_;
  TileGeometry geometry_;
  DeviceContext device_;
  ExprPrinter exprs_;
  PythonWriter* body_ = nullptr;
  std::vector<PyExpr> masks_;  // per output: the in-range condition ("" when not masked)
  std::vector<std::optional<PyExpr>>
      mask_guards_;                     // per output: when masks_ applies (none: always)
  std::vector<bool> inner_windowed_;    // per output: inner loops store windows of its block
  std::map<int, std::string> scratch_;  // carry of the `grid` loop -> its VMEM scratch ref
  std::map<int, Dma> dma_;              // `fori_loop` inner loops
};

}  // namespace

bool print_kernel_function(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                           const passes::ShapeFacts& facts, const passes::Launch& launch,
                           const LaunchNames& names, size_t variant) {
  return KernelPrinter(out, context, kernel, facts, launch, names, variant).print();
}

}  // namespace helionc::backend::pallas
