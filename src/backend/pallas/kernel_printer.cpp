#include "backend/pallas/kernel_printer.h"

#include <fmt/format.h>

#include "backend/pallas/names.h"

namespace helionc::backend::pallas {

namespace {

using passes::Capture;
using passes::Input;
using passes::Launch;

class DeviceContext final : public ExprContext {
 public:
  DeviceContext(EmitContext& context, const ir::Kernel& kernel, const Launch& launch,
                const LaunchNames& names)
      : context_(context), kernel_(kernel), launch_(launch), names_(names) {}

  PyExpr var(const ir::VarRef& ref) override {
    const auto origin = kernel_.bindings[ref.binding].origin;
    if (origin == ir::Binding::Origin::kDevice || origin == ir::Binding::Origin::kLoopVar) {
      return py_atom(binding_name(kernel_, ref.binding));
    }
    return py_atom(capture(Capture::Kind::kValue, ref.binding));
  }

  PyExpr load(const ir::Load& load) override {
    const passes::RefUse use = launch_.loads.at(&load);
    const std::string& ref = use.output ? names_.outputs[use.index] : names_.inputs[use.index];
    return py_atom(ref + "[...]");
  }

  PyExpr tensor_query(ir::Intrinsic op, const ir::VarRef& tensor,
                      const ir::ExprPtr& axis) override {
    if (op == ir::Intrinsic::kDtypeOf) {
      if (std::string ref = ref_of(tensor.binding); !ref.empty()) return py_atom(ref + ".dtype");
      return py_atom(capture(Capture::Kind::kDtype, tensor.binding));
    }
    const std::string shape = capture(Capture::Kind::kShape, tensor.binding);
    switch (op) {
      case ir::Intrinsic::kSize: {
        const auto* imm = axis ? axis->as<ir::IntImm>() : nullptr;
        return py_atom(fmt::format("{}[{}]", shape, imm ? imm->value : 0));
      }
      case ir::Intrinsic::kNumel:
        context_.imports.math = true;
        return py_call("math.prod", {shape});
      case ir::Intrinsic::kNdim:
        return py_call("len", {shape});
      default:
        return py_atom(shape);
    }
  }

  // The ref through which the kernel sees `binding`, if it is an operand.
  std::string ref_of(int binding) const {
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      if (launch_.inputs[i].operand.binding == binding &&
          launch_.inputs[i].kind != Input::Kind::kAliasedUnread) {
        return names_.inputs[i];
      }
    }
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      if (launch_.outputs[o].operand.binding == binding) return names_.outputs[o];
    }
    return "";
  }

 private:
  std::string capture(Capture::Kind kind, int binding) const {
    for (size_t i = 0; i < launch_.captures.size(); ++i) {
      if (launch_.captures[i].kind == kind && launch_.captures[i].binding == binding) {
        return names_.captures[i];
      }
    }
    HELIONC_UNREACHABLE(fmt::format("`{}` is used in device code but was not captured",
                                    kernel_.bindings[binding].name));
  }

  EmitContext& context_;
  const ir::Kernel& kernel_;
  const Launch& launch_;
  const LaunchNames& names_;
};

class KernelPrinter {
 public:
  KernelPrinter(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                const passes::ShapeFacts& facts, const Launch& launch, const LaunchNames& names)
      : out_(out),
        context_(context),
        kernel_(kernel),
        facts_(facts),
        launch_(launch),
        names_(names),
        device_(context, kernel, launch, names),
        exprs_(kernel, device_, context.imports, context.diags) {}

  bool print() {
    std::vector<std::string> params = names_.inputs;
    params.insert(params.end(), names_.outputs.begin(), names_.outputs.end());
    if (!names_.captures.empty()) {
      params.emplace_back("*");
      params.insert(params.end(), names_.captures.begin(), names_.captures.end());
    }
    auto body =
        out_.block(fmt::format("def {}({}):", names_.kernel_function, fmt::join(params, ", ")));
    for (const auto& [binding, axis] : launch_.program_ids) {
      PyExpr index = py_call("pl.program_id", {std::to_string(axis)});
      const ir::TileDim& dim = kernel_.tile_dims[launch_.grid[axis].tile_dim];
      if (has_begin(dim)) index = py_binary("+", exprs_.print(dim.begin), index);
      out_.line(fmt::format("{} = {}", binding_name(kernel_, binding), index.text));
    }
    print_mask_indices();
    for (const ir::StmtPtr& stmt : launch_.tile_loop().body) statement(*stmt);
    return exprs_.ok();
  }

  // For outputs stored under a mask: the global element index along each masked axis,
  // `(pl.program_id(g) + begin // block) * block + iota` (Helion's `tile.index`).
  void print_mask_indices() {
    NameScope scope;
    for (const ir::Binding& binding : kernel_.bindings) {
      scope.reserve(safe_local_name(binding.name));
    }
    for (const std::string& name : names_.inputs) scope.reserve(name);
    for (const std::string& name : names_.outputs) scope.reserve(name);
    for (const std::string& name : names_.captures) scope.reserve(name);
    masks_.resize(launch_.outputs.size());
    for (size_t o = 0; o < launch_.outputs.size(); ++o) {
      const passes::Output& output = launch_.outputs[o];
      for (int axis : output.masked_axes) {
        const int tile_dim = output.operand.view[axis].tile_dim;
        const ir::TileDim& dim = kernel_.tile_dims[tile_dim];
        size_t grid = 0;
        while (launch_.grid[grid].tile_dim != tile_dim) ++grid;
        int kernel_axis = 0;  // the axis among those the kernel sees
        for (int a = 0; a < axis; ++a) kernel_axis += output.operand.view[a].squeezed ? 0 : 1;
        const PyExpr block = py_atom(block_capture(tile_dim));
        PyExpr first = py_call("pl.program_id", {std::to_string(grid)});
        PyExpr begin;
        if (has_begin(dim)) {
          begin = exprs_.print(dim.begin);
          first = py_binary("+", first, py_binary("//", begin, block));
        }
        const std::string index = scope.fresh(safe_local_name(dim.name) + "_index");
        const PyExpr iota =
            py_call("jax.lax.broadcasted_iota",
                    {"jnp.int32", names_.outputs[o] + ".shape", std::to_string(kernel_axis)});
        out_.line(
            fmt::format("{} = {}", index, py_binary("+", py_binary("*", first, block), iota).text));
        std::vector<PyExpr> conditions;
        if (has_begin(dim)) conditions.push_back(py_binary(">=", py_atom(index), begin));
        conditions.push_back(py_binary("<", py_atom(index), exprs_.print(dim.extent)));
        for (const PyExpr& condition : conditions) {
          masks_[o] = masks_[o].text.empty() ? condition : py_binary("&", masks_[o], condition);
        }
      }
    }
  }

  std::string block_capture(int tile_dim) const {
    for (size_t i = 0; i < launch_.captures.size(); ++i) {
      if (launch_.captures[i].kind == passes::Capture::Kind::kBlock &&
          launch_.captures[i].tile_dim == tile_dim) {
        return names_.captures[i];
      }
    }
    HELIONC_UNREACHABLE("a masked tile dimension without its block size");
  }

 private:
  void statement(const ir::Stmt& stmt) {
    if (const auto* let = stmt.as<ir::Let>()) {
      std::vector<std::string> targets;
      for (int target : let->targets) targets.push_back(binding_name(kernel_, target));
      out_.line(context_.with_where(
          fmt::format("{} = {}", fmt::join(targets, ", "), exprs_.text(let->value)), stmt.range));
      return;
    }
    if (const auto* store = stmt.as<ir::Store>()) {
      const int output = launch_.stores.at(store);
      const std::string& ref = names_.outputs[output];
      std::string value = stored_value(*store, ref);
      if (!masks_[output].text.empty()) {
        // Outside the loop's range the block keeps the array's old values.
        const std::string& old = names_.inputs[launch_.outputs[output].aliased_input];
        value = py_call("jnp.where", {masks_[output].text, value, old + "[...]"}).text;
      }
      out_.line(context_.with_where(fmt::format("{}[...] = {}", ref, value), stmt.range));
      return;
    }
    if (const auto* branch = stmt.as<ir::If>()) {
      // A static condition: plain Python, decided while the kernel is traced.
      {
        auto then_block = out_.block(
            context_.with_where(fmt::format("if {}:", exprs_.text(branch->condition)), stmt.range));
        for (const ir::StmtPtr& s : branch->then_body) statement(*s);
      }
      if (!branch->else_body.empty()) {
        auto else_block = out_.block("else:");
        for (const ir::StmtPtr& s : branch->else_body) statement(*s);
      }
      return;
    }
    HELIONC_UNREACHABLE("the planner let an unsupported statement into a kernel body");
  }

  // The value of a store, broadcast to the block and cast to the array's dtype as needed.
  std::string stored_value(const ir::Store& store, const std::string& ref) {
    const ir::Type& type = store.value->type;
    PyExpr value = exprs_.print(store.value);
    if (type.kind != ir::TypeKind::kTileTensor) {
      return py_call("jnp.full", {ref + ".shape", value.text, ref + ".dtype"}).text;
    }
    const auto* tensor = store.tensor->as<ir::VarRef>();
    const std::vector<ir::Dim> target = stored_dims(store);
    if (!type.variadic && type.dims.size() > target.size()) {
      // PyTorch drops leading unit axes when storing (`out[i, :] = row[None, :]`).
      value = py_atom(fmt::format("{}.reshape({}.shape)", py_primary(value), ref));
    } else if (!same_dims(type.dims, target)) {
      value = py_call("jnp.broadcast_to", {value.text, ref + ".shape"});
    }
    const std::optional<ir::ScalarType> array_dtype = kernel_.bindings[tensor->binding].type.dtype;
    if (type.dtype && array_dtype && *type.dtype == *array_dtype) return value.text;
    return fmt::format("{}.astype({}.dtype)", py_primary(value), ref);
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
        case ir::IndexItem::Kind::kNewAxis:
          dims.push_back(ir::Dim::unit());
          break;
        case ir::IndexItem::Kind::kScalar:
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
  DeviceContext device_;
  ExprPrinter exprs_;
  std::vector<PyExpr> masks_;  // per output: the in-range condition ("" when not masked)
};

}  // namespace

bool print_kernel_function(PythonWriter& out, EmitContext& context, const ir::Kernel& kernel,
                           const passes::ShapeFacts& facts, const passes::Launch& launch,
                           const LaunchNames& names) {
  return KernelPrinter(out, context, kernel, facts, launch, names).print();
}

}  // namespace helionc::backend::pallas
