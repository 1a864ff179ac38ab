// DeviceContext: how device code reads refs, tile attributes, shapes and masks. Part of the kernel
// printer (kernel_printer.cpp); included only there.
#pragma once

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend/pallas/emit_context.h"
#include "backend/pallas/expr_printer.h"
#include "backend/pallas/launch_names.h"
#include "backend/pallas/names.h"
#include "backend/pallas/py_expr.h"
#include "backend/pallas/tile_geometry.h"
#include "passes/held_blocks.h"

namespace helionc::backend::pallas::kernel_body {

using passes::Capture;
using passes::Input;
using passes::Launch;

class DeviceContext final : public ExprContext {
 public:
  bool in_kernel() const override { return true; }
  std::string where(const SourceRange& range) const override { return context_.where(range); }
  DeviceContext(EmitContext& context, const ir::Kernel& kernel, const passes::ShapeFacts& facts,
                const Launch& launch, const LaunchNames& names,
                const passes::LaunchSchedule& schedule, TileGeometry& geometry)
      : context_(context),
        kernel_(kernel),
        facts_(facts),
        launch_(launch),
        names_(names),
        schedule_(schedule),
        geometry_(geometry),
        padding_(kernel, launch, schedule) {}

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
    const passes::Operand& operand =
        use.output ? launch_.outputs[use.index].operand : launch_.inputs[use.index].operand;
    if (operand.smem) {
      // A scalar read from SMEM: `scale_ref[0]`, `table_ref[i, j]`.
      std::vector<std::string> items;
      items.reserve(load.index.size());
      for (const ir::IndexItem& item : load.index) {
        items.push_back(geometry_.print(item.scalar).text);
      }
      // SMEM holds 32-bit words (`_smem_array` widened narrower arrays); the scalar stays
      // 32-bit (the TPU's scalar unit has no 16-bit arithmetic): jnp promotes with it.
      return py_atom(fmt::format("{}[{}]", ref, fmt::join(items, ", ")));
    }
    int kernel_axis = 0;
    std::vector<const passes::ViewAxis*> gathers;
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.gather) gathers.push_back(&axis);
    }
    if (gathers.size() == 2) return cartesian_gather(load, operand, ref);
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.gather) return gather(load, use, operand, ref, axis, kernel_axis);
      kernel_axis += axis.squeezed ? 0 : 1;
    }
    // The access's part of the block, then the elements it picks: the column of a window of
    // lanes (the last kernel axis, so it goes first) and the picked elements of other axes.
    PyExpr value = block_read(load, use, operand, ref);
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.kind != passes::ViewAxis::Kind::kColumn) continue;
      // The block is a window of lanes holding the column: select it.
      context_.imports.helpers.insert("column");
      value = py_call("_column", {value.text, geometry_.print(axis.scalar).text});
    }
    return picked_read(operand, value, load.index);
  }

  // The block of `ref` as an access with `load`'s index reads it: the whole block, the block
  // an inner loop streams, windows of a resident block, slices.
  PyExpr block_read(const ir::Load& load, const passes::RefUse& use, const passes::Operand& operand,
                    const std::string& ref) {
    if (auto streamed = streamed_.find(use.index); !use.output && streamed != streamed_.end()) {
      // A block copied into VMEM by a `fori_loop` loop (`buf[slot]`), or the block ref of an
      // `emit_pipeline` body (`x_block[...]`), sliced like the access.
      const std::string sliced = slice_subscript(operand, load.index);
      if (sliced.empty()) return py_atom(streamed->second);
      const std::string& block = streamed->second;
      if (!block.ends_with("[...]")) return py_atom(block + sliced);  // a value: slices as jnp
      // A block ref: sliced as a ref, but Pallas refuses an empty slice of one, where the
      // loaded block's slice is the empty array Python gives.
      const std::string block_ref = block.substr(0, block.size() - 5);
      const std::string nonempty = sliced_block(block_ref, operand, load.index).nonempty;
      if (nonempty.empty()) return py_atom(block_ref + sliced);
      return py_atom(
          fmt::format("({}{} if {} else {}{})", block_ref, sliced, nonempty, block, sliced));
    }
    const std::string read = ref + window(ref, operand, &load.index);
    const SlicedBlock sliced = sliced_block(ref, operand, load.index);
    if (sliced.nonempty.empty()) return py_atom(read);
    // Pallas refuses an empty slice of a ref; Python's is an empty array.
    return py_atom(fmt::format("({} if {} else jnp.zeros({}, {}.dtype))", read, sliced.nonempty,
                               sliced.shape, ref));
  }

  // The (kernel axis, index) pairs, in increasing axis order, of the elements that an access
  // with `index` picks from `operand`'s block (passes::ViewAxis::picked; a `:` picks none).
  std::vector<std::pair<int, std::string>> picks(const passes::Operand& operand,
                                                 const ir::Index& index) {
    std::vector<std::pair<int, std::string>> result;
    int kernel_axis = 0;
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.picked) {
        const ir::IndexItem& item = index[static_cast<size_t>(axis.array_axis)];
        if (item.kind == ir::IndexItem::Kind::kScalar) {
          result.emplace_back(kernel_axis, geometry_.print(item.scalar).text);
        }
      }
      kernel_axis += axis.squeezed ? 0 : 1;
    }
    return result;
  }

  // A read of an array whose accesses pick elements: `value` (its block, the column already
  // selected), then each picked element (`_pick`, last axis first so that the earlier axes keep
  // their positions).
  PyExpr picked_read(const passes::Operand& operand, PyExpr value, const ir::Index& index) {
    const auto picked = picks(operand, index);
    if (picked.empty()) return value;
    context_.imports.helpers.insert("picks");
    for (auto it = picked.rbegin(); it != picked.rend(); ++it) {
      value = py_call("_pick", {value.text, std::to_string(it->first), it->second});
    }
    return value;
  }

  // The shape of an access's part of the block of `ref` (`(block,
  // len(range(x_ref.shape[1])[16:]))`) and, when a slice of it may be empty, the condition that
  // none is ("" otherwise).
  struct SlicedBlock {
    std::string shape;
    std::string nonempty;
    std::vector<std::string> sizes;  // the shape's entries
  };
  SlicedBlock sliced_block(const std::string& ref, const passes::Operand& operand,
                           const ir::Index& index) {
    const std::map<int, std::string> slices = slice_items(index);
    std::map<int, int> slice_ids;
    {
      int axis = 0;
      for (const ir::IndexItem& item : index) {
        if (item.kind == ir::IndexItem::Kind::kSlice) slice_ids[axis] = item.slice;
        if (item.kind != ir::IndexItem::Kind::kNewAxis) ++axis;
      }
    }
    std::vector<std::string> sizes;
    std::vector<std::string> conditions;
    int k = 0;  // the kernel axis
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.squeezed) continue;
      auto slice = slices.find(axis.array_axis);
      if (axis.kind == passes::ViewAxis::Kind::kTile && geometry_.windowed(axis.tile_dim)) {
        sizes.push_back(geometry_.block(axis.tile_dim));
      } else if (axis.kind == passes::ViewAxis::Kind::kFull && slice != slices.end()) {
        // The block is whole along the axis: the slice's length is Python's.
        sizes.push_back(fmt::format("len(range({}.shape[{}])[{}])", ref, k, slice->second));
        if (may_be_empty(slice_ids.at(axis.array_axis))) {
          conditions.push_back(sizes.back() + " > 0");
        }
      } else {
        sizes.push_back(fmt::format("{}.shape[{}]", ref, k));
      }
      ++k;
    }
    return {py_tuple(sizes), fmt::format("{}", fmt::join(conditions, " and ")), sizes};
  }

  // `:c` with a literal c > 0 has an element whenever the axis has one; anything else may be
  // empty (`16:` of 7 columns, `:n` with n = 0, `:-1` of one column).
  bool may_be_empty(int slice) const {
    const ir::SliceBounds& bounds = kernel_.slices[static_cast<size_t>(slice)];
    const bool from_start = !bounds.start || ir::int_literal(*bounds.start, -1) == 0;
    return !(from_start && bounds.stop && ir::int_literal(*bounds.stop, 0) > 0);
  }

  // The rows buffer and DMA semaphore of the row gather from input `input` that may copy by DMA.
  void gather_scratch(int input, std::string rows, std::string copies) {
    gather_scratch_[input] = {std::move(rows), std::move(copies)};
  }

  // While a `fori_loop` loop is printed: its streamed inputs are read from their buffers.
  void stream(int input, std::string buffer) { streamed_[input] = std::move(buffer); }
  void stop_streaming() { streamed_.clear(); }

  // `_block_at(position, block, ref.shape[axis])`: the start or number of a block along an axis
  // of `ref` (a window of a resident block, or a block streamed from HBM), 0 when the block
  // spans the axis, so that the TPU compiler sees an aligned start
  // (templates/helper_block_at.py.tmpl).
  std::string block_at(const std::string& position, const std::string& block,
                       const std::string& ref, size_t axis) {
    context_.imports.helpers.insert("block_at");
    return py_call("_block_at", {position, block, fmt::format("{}.shape[{}]", ref, axis)}).text;
  }

  // The subscript of `ref` an access reads or writes: `[...]`, or `[:, pl.ds(start, block_k)]`
  // where an axis is tiled by an inner loop whose blocks are windows of a block resident in
  // VMEM (the `unroll` strategy), and `[:, 16:]` where the access `index` (when given) slices
  // an axis: the block is whole along it (plan_views), so the slice's bounds are the array's.
  // A window's start is `_block_at(tile_k_start, block_k, ref.shape[1])`: 0 where the window
  // spans the resident axis (a whole axis of 100 rows or 300 lanes), whose dynamic start
  // Mosaic cannot prove a multiple of the memory tile; elsewhere the block is a multiple of the
  // tile (_legal_block) and so is the start.
  std::string window(const std::string& ref, const passes::Operand& operand,
                     const ir::Index* index = nullptr) {
    const std::map<int, std::string> slices =
        index ? slice_items(*index) : std::map<int, std::string>{};
    std::vector<std::string> items;
    bool windowed = false;
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.squeezed) continue;
      if (axis.kind == passes::ViewAxis::Kind::kTile && geometry_.windowed(axis.tile_dim)) {
        const std::string block = geometry_.block(axis.tile_dim);
        items.push_back(py_call("pl.ds", {block_at(geometry_.start(axis.tile_dim).text, block, ref,
                                                   items.size()),
                                          block})
                            .text);
        windowed = true;
      } else if (auto slice = slices.find(axis.array_axis);
                 axis.kind == passes::ViewAxis::Kind::kFull && slice != slices.end()) {
        items.push_back(slice->second);
        windowed = true;
      } else {
        items.emplace_back(":");
      }
    }
    if (!windowed) return "[...]";
    while (items.back() == ":") items.pop_back();
    return fmt::format("[{}]", fmt::join(items, ", "));
  }

  // `[:, 16:]` for an access that slices the operand's block (kernel axes only), else "".
  std::string slice_subscript(const passes::Operand& operand, const ir::Index& index) {
    const std::map<int, std::string> slices = slice_items(index);
    if (slices.empty()) return "";
    std::vector<std::string> items;
    for (const passes::ViewAxis& axis : operand.view) {
      if (axis.squeezed) continue;
      auto slice = slices.find(axis.array_axis);
      const bool sliced = axis.kind == passes::ViewAxis::Kind::kFull && slice != slices.end();
      items.push_back(sliced ? slice->second : ":");
    }
    while (!items.empty() && items.back() == ":") items.pop_back();
    return fmt::format("[{}]", fmt::join(items, ", "));
  }

  // The slices of an access by array axis, printed: `16:`, `:n`, `a:b`.
  std::map<int, std::string> slice_items(const ir::Index& index) {
    std::map<int, std::string> items;
    int axis = 0;
    for (const ir::IndexItem& item : index) {
      if (item.kind == ir::IndexItem::Kind::kSlice) items[axis] = slice_text(item.slice);
      if (item.kind != ir::IndexItem::Kind::kNewAxis) ++axis;
    }
    return items;
  }

  std::string slice_text(int slice) {
    const ir::SliceBounds& bounds = kernel_.slices[static_cast<size_t>(slice)];
    return fmt::format("{}:{}", bounds.start ? geometry_.print(bounds.start).text : "",
                       bounds.stop ? geometry_.print(bounds.stop).text : "");
  }

  // A gather along kernel axis `kernel_axis` of the operand's block (whole along that axis,
  // sliced like the access): `_gather_1d` for a rank-1 table, `_gather_rows` /
  // `_gather_columns` for the outer gathers of a rank-2 one at 1-D indices, `_pick_columns`
  // when the indices run along the rows (one element per row), `_gather_axis` for the others
  // (tables of higher rank, indices of several dimensions). A row gather that may copy by DMA
  // (ViewAxis::dma_ids) picks its path as JAX traces it.
  PyExpr gather(const ir::Load& load, const passes::RefUse& use, const passes::Operand& operand,
                const std::string& ref, const passes::ViewAxis& axis, int kernel_axis) {
    context_.imports.helpers.insert("gather");
    context_.imports.helpers.insert("dot");  // the one-hot matmuls
    std::string table = ref + window(ref, operand, &load.index);
    if (const SlicedBlock sliced = sliced_block(ref, operand, load.index);
        !sliced.nonempty.empty()) {
      // Pallas refuses an empty slice of a ref; Python's is an empty array.
      table = fmt::format("({} if {} else jnp.zeros({}, {}.dtype))", table, sliced.nonempty,
                          sliced.shape, ref);
    }
    const std::string index = geometry_.print(axis.gather).text;
    const int rank = operand.kernel_rank();
    if (rank == 1) return py_call("_gather_1d", {table, index});
    if (rank > 2 || axis.gather->type.dims.size() != 1) {
      context_.imports.math = true;  // `math.prod` of the other axes
      return py_call("_gather_axis", {table, index, std::to_string(kernel_axis)});
    }
    if (kernel_axis == 0 && axis.dma_ids >= 0 && !use.output) {
      const PyExpr one_hot = py_call("_gather_rows", {table, index});
      return py_atom(fmt::format("({} if {} else {})", dma_rows(use.index, operand, ref, axis).text,
                                 gather_flag(use.index), one_hot.text));
    }
    if (kernel_axis == 0) return py_call("_gather_rows", {table, index});
    // One index per row: only Helion's flat form (`flat[tile_n.index * v + labels[tile_n]]`,
    // rewritten by plan_gathers to a [tile_n] load). `logits[tile_n, labels[tile_n]]` itself is
    // [tile_n, tile_n] in Helion (every row at every label of the block): `_gather_columns`.
    if (load.type.dims.size() == 1) return py_call("_pick_columns", {table, index});
    return py_call("_gather_columns", {table, index});
  }

  // A read through two 1-D tiles of indices of a 2-D array stored through them in the same
  // loop (passes::cartesian_scatter: only stores have such views, and a read must index as the
  // stores do): the cartesian product, the rows' one-hot gather then the columns'.
  PyExpr cartesian_gather(const ir::Load& load, const passes::Operand& operand,
                          const std::string& ref) {
    context_.imports.helpers.insert("gather");
    context_.imports.helpers.insert("dot");  // the one-hot matmuls
    const PyExpr rows = py_call("_gather_rows", {ref + window(ref, operand, &load.index),
                                                 geometry_.print(load.index[0].scalar).text});
    return py_call("_gather_columns", {rows.text, geometry_.print(load.index[1].scalar).text});
  }

  // `_gather_rows_dma(w_ref, ids_smem, ids, tile_b_start, tile_e_start, w_rows, w_copies)`:
  // the rows of the block copied from the table in HBM at the block's indices, read from SMEM
  // (`ids`: the same indices as a vector, where a copy holds a tile of rows to pick from).
  PyExpr dma_rows(int input, const passes::Operand& operand, const std::string& ref,
                  const passes::ViewAxis& axis) {
    context_.imports.helpers.insert("block_at");  // the column start
    const passes::Operand& ids = launch_.inputs[static_cast<size_t>(axis.dma_ids)].operand;
    const passes::ViewAxis& columns = operand.view[1];
    const std::string column_start = columns.kind == passes::ViewAxis::Kind::kTile
                                         ? geometry_.start(columns.tile_dim).text
                                         : std::string("0");
    const auto& [rows, copies] = gather_scratch_.at(input);
    return py_call(
        "_gather_rows_dma",
        {ref, names_.inputs[static_cast<size_t>(axis.dma_ids)], geometry_.print(axis.gather).text,
         geometry_.start(ids.index.front().tile_dim).text, column_start, rows, copies});
  }

  // The keyword telling the kernel whether the gather from input `input` copies by DMA.
  std::string gather_flag(int input) const {
    for (size_t i = 0; i < launch_.captures.size(); ++i) {
      if (launch_.captures[i].kind == Capture::Kind::kGatherByDma &&
          launch_.captures[i].input == input) {
        return names_.captures[i];
      }
    }
    HELIONC_UNREACHABLE("a row gather by DMA without its trace-time choice");
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

  const std::set<int>* lane_rows() const override { return &schedule_.lane_rows; }

  std::optional<std::string> block_shape(const ir::Expr& expr) override {
    return dims_shape(expr.type.dims);
  }

  // Whether the planner captured the block size of `tile_dim` (and what masks along it need).
  bool has_block(int tile_dim) const {
    for (const Capture& capture : launch_.captures) {
      if (capture.kind == Capture::Kind::kBlock && capture.tile_dim == tile_dim) return true;
    }
    return false;
  }

  // Whether the planner captured the shape of `binding`.
  bool has_shape(int binding) const {
    for (const Capture& capture : launch_.captures) {
      if (capture.kind == Capture::Kind::kShape && capture.binding == binding) return true;
    }
    return false;
  }

  // The block shape of values of shape `dims`: block sizes, whole dimensions and 1s (nullopt
  // when one is not known here).
  std::optional<std::string> dims_shape(const std::vector<ir::Dim>& dims) {
    std::vector<std::string> sizes;
    for (const ir::Dim& dim : dims) {
      switch (dim.kind) {
        case ir::Dim::Kind::kTile:
          if (!has_block(dim.tile_dim)) return std::nullopt;
          sizes.push_back(geometry_.block(dim.tile_dim));
          break;
        case ir::Dim::Kind::kTilePart:  // the division was checked where the value was made
          if (!has_block(dim.tile_dim)) return std::nullopt;
          sizes.push_back(fmt::format("{} // {}", geometry_.block(dim.tile_dim), dim.extent));
          break;
        case ir::Dim::Kind::kFull:
          if (!has_shape(dim.binding)) return std::nullopt;
          sizes.push_back(
              fmt::format("{}[{}]", capture(Capture::Kind::kShape, dim.binding), dim.axis));
          break;
        case ir::Dim::Kind::kUnit:
          sizes.emplace_back("1");
          break;
        case ir::Dim::Kind::kSlice:
          // Python's slice of the axis's positions: its length with clamping and negatives.
          if (!has_shape(dim.binding)) return std::nullopt;
          sizes.push_back(fmt::format("len(range({}[{}])[{}])",
                                      capture(Capture::Kind::kShape, dim.binding), dim.axis,
                                      slice_text(dim.slice)));
          break;
        case ir::Dim::Kind::kLiteral:
          sizes.push_back(std::to_string(dim.extent));
          break;
        case ir::Dim::Kind::kComputed:
          // A host int the body computes from captured values (its creation reads them).
          sizes.push_back(
              geometry_.print(kernel_.computed_sizes[static_cast<size_t>(dim.size)].value).text);
          break;
        case ir::Dim::Kind::kVariadic:
          return std::nullopt;
      }
    }
    return py_tuple(sizes);
  }

  // A tile dimension of the launch whose blocks may run past the loop's range, or -1.
  int partial_tile(const ir::ExprPtr& operand, int axis) const {
    return partial_tile(*operand, axis);
  }
  int partial_tile(const ir::Expr& operand, int axis) const {
    const ir::Type& type = operand.type;
    if (type.kind != ir::TypeKind::kTileTensor || axis < 0 ||
        axis >= static_cast<int>(type.dims.size()) ||
        type.dims[axis].kind != ir::Dim::Kind::kTile) {
      return -1;
    }
    const int tile_dim = type.dims[axis].tile_dim;
    const ir::TileDim& dim = kernel_.tile_dims[tile_dim];
    return dim.block.kind == ir::BlockSource::Kind::kGrid ? -1 : tile_dim;
  }

  PyExpr masked_operand(const ir::Expr& operand, PyExpr value, int axis,
                        std::string_view identity) override {
    const int tile_dim = partial_tile(operand, axis);
    if (tile_dim < 0) return value;
    if (!has_block(tile_dim)) {
      // The planner prepares masks for the first operand of ops that reduce along an axis
      // (ir::reduces_along_axis); anything else must not silently sum padding.
      context_.diags.error(DiagnosticKind::kUnsupported, operand.range,
                           fmt::format("masking the padding of `{}` here is not supported yet",
                                       kernel_.tile_dims[tile_dim].name));
      return value;
    }
    // The index along `axis` only (1 elsewhere): `jnp.where` broadcasts the condition, and an
    // iota and comparison over the whole block would cost as much as the work they guard.
    std::vector<std::string> sizes(operand.type.dims.size(), "1");
    sizes[static_cast<size_t>(axis)] = geometry_.block(tile_dim);
    const std::optional<std::string> shape = py_tuple(sizes);
    const std::optional<PyExpr> partial = geometry_.partial_condition(tile_dim);
    const PyExpr index = geometry_.index(tile_dim, *shape, axis, partial);
    std::string fill(identity);
    const std::optional<ir::ScalarType> dtype = operand.type.dtype;
    const bool integral = dtype && !ir::is_floating(*dtype);
    if (identity == "lowest") {
      fill = integral ? fmt::format("jnp.iinfo({}).min", ir::jnp_dtype(*dtype)) : "-jnp.inf";
    } else if (identity == "highest") {
      fill = integral ? fmt::format("jnp.iinfo({}).max", ir::jnp_dtype(*dtype)) : "jnp.inf";
    }
    PyExpr in_range = geometry_.in_range(tile_dim, index);
    if (const std::optional<std::string> block = dims_shape(operand.type.dims)) {
      // The condition is computed along `axis` only and broadcast a register tile at a time.
      context_.imports.helpers.insert("tile_broadcast");
      in_range = py_call("_tile_broadcast", {in_range.text, *block});
    }
    // A max or min over a dtype known only while JAX traces: the fill must be of that dtype
    // (an int32 value masked with -inf would become float32).
    const bool extreme = identity == "lowest" || identity == "highest";
    if (extreme && !dtype) context_.imports.helpers.insert("masked_extreme");
    const PyExpr masked =
        extreme && !dtype ? py_call("_masked_extreme", {in_range.text, value.text,
                                                        identity == "lowest" ? "True" : "False"})
                          : py_call("jnp.where", {in_range.text, value.text, fill});
    return partial ? py_conditional(masked, *partial, value) : masked;
  }

  passes::Pad padding(const ir::Expr& operand, int axis) override {
    return padding_.padding(operand, axis);
  }

  std::optional<PyExpr> valid_count(const ir::Call& call, int axis) override {
    const int tile_dim = partial_tile(call.args[0], axis);
    if (tile_dim < 0) return std::nullopt;
    const PyExpr start = geometry_.start(tile_dim);
    const PyExpr block = py_atom(geometry_.block(tile_dim));
    const PyExpr end = py_call(
        "jnp.minimum", {py_binary("+", start, block).text, geometry_.extent(tile_dim).text});
    const PyExpr first = has_begin(kernel_.tile_dims[tile_dim])
                             ? py_call("jnp.maximum", {start.text, geometry_.begin(tile_dim).text})
                             : start;
    return py_binary("-", end, first);
  }

  std::optional<std::string> block_rows(int tile_dim) override {
    const bool begins = has_begin(kernel_.tile_dims[tile_dim]);
    return fmt::format("{}, {}, {}", geometry_.block(tile_dim),
                       begins ? geometry_.begin(tile_dim).text : "0",
                       geometry_.extent(tile_dim).text);
  }

  std::optional<PyExpr> tile_attr(const ir::TileAttr& attr) override {
    const int t = attr.tile_dim;
    const bool begins = has_begin(kernel_.tile_dims[t]);
    switch (attr.attr) {
      case ir::TileAttrKind::kIndex:
        return geometry_.index(t, py_tuple({geometry_.block(t)}), 0);
      case ir::TileAttrKind::kBegin:
        return begins ? py_call("jnp.maximum", {geometry_.start(t).text, geometry_.begin(t).text})
                      : geometry_.start(t);
      case ir::TileAttrKind::kEnd:
        return py_call("jnp.minimum",
                       {py_binary("+", geometry_.start(t), py_atom(geometry_.block(t))).text,
                        geometry_.extent(t).text});
      case ir::TileAttrKind::kBlockSize:
        return py_atom(geometry_.block(t));
      case ir::TileAttrKind::kId:
        return geometry_.id(t);
      case ir::TileAttrKind::kCount:
        return geometry_.count(t);
    }
    return std::nullopt;
  }

  std::optional<PyExpr> tile_index(int tile_dim, const std::string& shape, int axis) override {
    if (!has_block(tile_dim)) return std::nullopt;
    const PyExpr iota =
        py_call("jax.lax.broadcasted_iota", {"jnp.int32", shape, std::to_string(axis)});
    return py_binary("+", geometry_.start(tile_dim), iota);
  }

  bool full_iota_draw(const std::vector<ir::Dim>& dims) override {
    return passes::draws_from_full_iotas(launch_, dims);
  }

  // The ref through which the kernel sees `binding`, if it is an operand.
  std::string ref_of(int binding) const {
    for (size_t i = 0; i < launch_.inputs.size(); ++i) {
      if (launch_.inputs[i].operand.binding == binding && !launch_.inputs[i].operand.smem &&
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
  const passes::ShapeFacts& facts_;
  const Launch& launch_;
  const LaunchNames& names_;
  const passes::LaunchSchedule& schedule_;  // the variant's
  TileGeometry& geometry_;
  passes::PaddingFacts padding_;         // what the padding of partial blocks holds
  std::map<int, std::string> streamed_;  // input -> the VMEM buffer slot holding its block
  // Table input of a row gather that may copy by DMA -> its rows buffer and DMA semaphore.
  std::map<int, std::pair<std::string, std::string>> gather_scratch_;
};

}  // namespace helionc::backend::pallas::kernel_body
