// TileGeometry: where a kernel's blocks lie. Part of the kernel printer (kernel_printer.cpp);
// included only there.
#pragma once

#include <fmt/format.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "backend/pallas/emit_context.h"
#include "backend/pallas/expr_printer.h"
#include "backend/pallas/launch_names.h"
#include "backend/pallas/names.h"
#include "backend/pallas/py_expr.h"
#include "ir/visitor.h"

namespace helionc::backend::pallas::kernel_body {

using passes::Capture;
using passes::Input;
using passes::Launch;

// Where the current blocks lie in the arrays: per tile dimension the element index of the
// block's first element, element indices along an axis, and the loop's range. Each value is
// computed once, in lines at the top of the kernel (the preamble).
class TileGeometry {
 public:
  TileGeometry(const ir::Kernel& kernel, const Launch& launch, const LaunchNames& names,
               const passes::LaunchSchedule& schedule, NameScope& scope)
      : kernel_(kernel), launch_(launch), names_(names), schedule_(schedule), scope_(scope) {}

  void set_printer(ExprPrinter* printer) { printer_ = printer; }
  const std::vector<std::string>& preamble() const { return preamble_; }

  size_t grid_axis(int tile_dim) const {
    for (size_t g = 0; g < launch_.grid.size(); ++g) {
      if (launch_.grid[g].tile_dim == tile_dim) return g;
    }
    HELIONC_UNREACHABLE("a tile dimension outside its launch");
  }

  // Whether blocks of `tile_dim` are windows of a block resident in VMEM, read with `pl.ds`.
  bool windowed(int tile_dim) const {
    return schedule_.dim(grid_axis(tile_dim)).run == passes::DimRun::kResident;
  }

  // The pallas_call grid axis of `tile_dim` (the launch's own dimensions, then those of a
  // `grid` inner loop).
  size_t pallas_axis(int tile_dim) const {
    const int axis = schedule_.dim(grid_axis(tile_dim)).pallas_axis;
    HELIONC_CHECK(axis >= 0, "a block index of a dimension that is not a grid axis");
    return static_cast<size_t>(axis);
  }

  // The grid axis of `tile_dim` as the kernel computes it: `1`, or `grid_order.index(1)` when
  // the configs reorder the grid of a multi-dimensional launch (`loop_orders`).
  std::string axis_text(int tile_dim) const {
    const size_t axis = pallas_axis(tile_dim);
    const bool reordered =
        !names_.loop_order.empty() && axis < launch_.tile_loop().tile_dims.size();
    return reordered ? fmt::format("{}.index({})", names_.loop_order, axis) : std::to_string(axis);
  }

  // An inner loop printed as a Python loop: the block index of each of its dimensions is the
  // name `steps` gives it, and the positions of its blocks are computed at the top of its body
  // (`lines`).
  void open_loop(int inner, std::map<int, std::string> steps) {
    loops_[inner] = {std::move(steps), {}};
  }
  std::vector<std::string> close_loop(int inner) {
    std::vector<std::string> lines = std::move(loops_.at(inner).lines);
    loops_.erase(inner);
    return lines;
  }

  std::string block(int tile_dim) const {
    for (size_t i = 0; i < launch_.captures.size(); ++i) {
      if (launch_.captures[i].kind == Capture::Kind::kBlock &&
          launch_.captures[i].tile_dim == tile_dim) {
        return names_.captures[i];
      }
    }
    HELIONC_UNREACHABLE("a tile dimension's block size is used but was not captured");
  }

  // The block number along `tile_dim`: a grid index, or an inner loop's step.
  PyExpr program_id(int tile_dim) const {
    if (const Loop* loop = python_loop(tile_dim)) return py_atom(loop->steps.at(tile_dim));
    return py_call("pl.program_id", {axis_text(tile_dim)});
  }

  // `tile.id` and `tile.count` as the kernel reads them, Helion's `tile.begin // block_size`
  // and `cdiv(end - begin, block_size)`: computed once at the top of the kernel
  // (`tile_b_id = pl.program_id(0)`), since interpret mode substitutes program ids only outside
  // the loops and branches of the kernel body. Blocks are numbered from the array's start, so
  // a loop with a begin counts its own blocks from the one holding it (the printed loops
  // refuse a begin the block does not divide: _kept_block); a paired loop's blocks start at
  // its begin, so its id is the block's start over the block.
  PyExpr id(int tile_dim) {
    if (paired(tile_dim)) return py_binary("//", start(tile_dim), py_atom(block(tile_dim)));
    return hoisted(tile_dim, "_id", block_index(tile_dim));
  }
  PyExpr count(int tile_dim) { return hoisted(tile_dim, "_count", block_count(tile_dim)); }

  // The block number along `tile_dim` counted from the array's start (an index map's value).
  PyExpr block_index(int tile_dim) {
    const ir::TileDim& dim = kernel_.tile_dims[tile_dim];
    PyExpr index = program_id(tile_dim);
    if (has_begin(dim) && python_loop(tile_dim) == nullptr) {
      index = py_binary("+", index, py_binary("//", begin(tile_dim), py_atom(block(tile_dim))));
    }
    return index;
  }

  // The number of blocks the loop over `tile_dim` visits: a grid axis's length, or an inner
  // loop's steps, from `first_block` up to `pl.cdiv(first_block_to_end, block)`.
  PyExpr block_count(int tile_dim) {
    if (python_loop(tile_dim) == nullptr) return py_call("pl.num_programs", {axis_text(tile_dim)});
    const PyExpr past_last =
        py_call("pl.cdiv", {first_block_to_end(tile_dim).text, block(tile_dim)});
    const std::optional<PyExpr> first = first_block(tile_dim);
    return first ? py_binary("-", past_last, *first) : past_last;
  }

  // The number of an inner loop's first block when it is not 0: `begin // block` for a loop
  // with a begin whose blocks are numbered from the array's start (a paired loop's from its
  // begin).
  std::optional<PyExpr> first_block(int tile_dim) {
    if (!has_begin(kernel_.tile_dims[tile_dim]) || paired(tile_dim)) return std::nullopt;
    return py_binary("//", begin(tile_dim), py_atom(block(tile_dim)));
  }

  // `tm_start = pl.program_id(0) * block_tm`: the array index of the block's first element
  // (blocks are numbered from the array's start, the first holding the loop's start; a paired
  // loop's blocks are numbered from its begin: `begin + k * block`).
  PyExpr start(int tile_dim) {
    auto it = starts_.find(tile_dim);
    if (it != starts_.end()) return py_atom(it->second);
    const ir::TileDim& dim = kernel_.tile_dims[tile_dim];
    const PyExpr block = py_atom(this->block(tile_dim));
    PyExpr first = program_id(tile_dim);
    // An inner loop's steps already count from the block holding `begin`.
    if (has_begin(dim) && python_loop(tile_dim) == nullptr) {
      first = py_binary("+", first, py_binary("//", begin(tile_dim), block));
    }
    PyExpr value = py_binary("*", first, block);
    if (paired(tile_dim)) value = py_binary("+", begin(tile_dim), value);
    const std::string name = scope_.fresh(safe_local_name(dim.name) + "_start");
    lines_for(tile_dim).push_back(fmt::format("{} = {}", name, value.text));
    starts_.emplace(tile_dim, name);
    return py_atom(name);
  }

  // Whether the blocks of `tile_dim` start at the loop's begin (ir::TileDim::paired_with).
  bool paired(int tile_dim) const { return kernel_.tile_dims[tile_dim].paired_with >= 0; }

  // What the loop's blocks span from the first's start: `end - begin` for a paired loop, whose
  // blocks start at its begin, else `end` (blocks from the array's start).
  PyExpr first_block_to_end(int tile_dim) {
    if (!paired(tile_dim)) return extent(tile_dim);
    return py_binary("-", extent(tile_dim), begin(tile_dim));
  }

  // The array indices of the elements of a block of `shape` along `axis`. Indices made for a
  // mask (`guard`, a partial_condition) are computed only when the guard holds, so a shape the
  // blocks divide builds no iota for them.
  PyExpr index(int tile_dim, const std::string& shape, int axis,
               const std::optional<PyExpr>& guard = std::nullopt) {
    const std::string key = fmt::format("{}|{}|{}", tile_dim, shape, axis);
    if (auto it = indices_.find(key); it != indices_.end()) return py_atom(it->second);
    if (guard) {
      if (auto it = guarded_indices_.find(key); it != guarded_indices_.end()) {
        return py_atom(it->second);
      }
    }
    const PyExpr iota =
        py_call("jax.lax.broadcasted_iota", {"jnp.int32", shape, std::to_string(axis)});
    PyExpr value = py_binary("+", start(tile_dim), iota);
    if (guard) value = py_conditional(value, *guard, py_atom("None"));
    const std::string name =
        scope_.fresh(safe_local_name(kernel_.tile_dims[tile_dim].name) + "_index");
    lines_for(tile_dim).push_back(fmt::format("{} = {}", name, value.text));
    (guard ? guarded_indices_ : indices_).emplace(key, name);
    return py_atom(name);
  }

  // A Python condition, decided while JAX traces, that holds when some block of `tile_dim`
  // holds elements outside the loop's range: its bounds are not multiples of the block size.
  // Masks are printed behind it (`x if not partial else jnp.where(...)`), so shapes the blocks
  // divide carry no mask work, as hand-written kernels specialise on static shapes. nullopt
  // when a bound is known only at run time (it reads kernel values: `hl.tile(0, tile_m.end)`),
  // where the mask stays unconditional.
  std::optional<PyExpr> partial_condition(int tile_dim) {
    const ir::TileDim& dim = kernel_.tile_dims[tile_dim];
    if (schedule_.dim(grid_axis(tile_dim)).partial == passes::PartialBlocks::kRunTime) {
      return std::nullopt;
    }
    if (auto it = partial_.find(tile_dim); it != partial_.end()) return py_atom(it->second);
    const PyExpr block = py_atom(this->block(tile_dim));
    auto ragged = [&](const PyExpr& bound) {
      return py_binary("!=", py_binary("%", bound, block), py_atom("0"));
    };
    PyExpr condition = ragged(extent(tile_dim));
    if (has_begin(dim)) condition = py_binary("or", ragged(begin(tile_dim)), condition);
    const std::string name = scope_.fresh(safe_local_name(dim.name) + "_partial");
    // The bounds and the block size are Python ints here, so the condition is one too: the
    // preamble of the kernel, even for an inner loop's dimension.
    preamble_.push_back(fmt::format("{} = {}", name, condition.text));
    partial_.emplace(tile_dim, name);
    return py_atom(name);
  }

  // Whether `index` lies in the loop's range.
  PyExpr in_range(int tile_dim, const PyExpr& index) {
    const ir::TileDim& dim = kernel_.tile_dims[tile_dim];
    PyExpr below_end = py_binary("<", index, printer_->print(dim.extent));
    if (!has_begin(dim)) return below_end;
    return py_binary("&", py_binary(">=", index, begin(tile_dim)), below_end);
  }

  PyExpr print(const ir::ExprPtr& expr) { return printer_->print(expr); }
  PyExpr begin(int tile_dim) { return printer_->print(kernel_.tile_dims[tile_dim].begin); }
  PyExpr extent(int tile_dim) { return printer_->print(kernel_.tile_dims[tile_dim].extent); }

 private:
  struct Loop {
    std::map<int, std::string> steps;  // per tile dimension
    std::vector<std::string> lines;
  };

  // `value`, a fact of a grid axis's position, bound to a name at the top of the kernel; an
  // inner loop's own (its step) as it is.
  PyExpr hoisted(int tile_dim, std::string_view suffix, const PyExpr& value) {
    if (python_loop(tile_dim) != nullptr) return value;
    const std::string key = fmt::format("{}{}", tile_dim, suffix);
    if (auto it = hoisted_.find(key); it != hoisted_.end()) return py_atom(it->second);
    const std::string name =
        scope_.fresh(safe_local_name(kernel_.tile_dims[tile_dim].name) + std::string(suffix));
    lines_for(tile_dim).push_back(fmt::format("{} = {}", name, value.text));
    hoisted_.emplace(key, name);
    return py_atom(name);
  }

  // The Python loop (an open inner loop printed as a loop) a tile dimension belongs to.
  const Loop* python_loop(int tile_dim) const {
    const int inner = launch_.grid[grid_axis(tile_dim)].inner_loop;
    auto it = loops_.find(inner);
    return inner >= 0 && it != loops_.end() ? &it->second : nullptr;
  }

  // Where values derived from a tile dimension's position are computed: at the top of the
  // kernel, or of the inner loop's body.
  std::vector<std::string>& lines_for(int tile_dim) {
    const int inner = launch_.grid[grid_axis(tile_dim)].inner_loop;
    auto it = loops_.find(inner);
    return inner >= 0 && it != loops_.end() ? it->second.lines : preamble_;
  }

  const ir::Kernel& kernel_;
  const Launch& launch_;
  const LaunchNames& names_;
  const passes::LaunchSchedule& schedule_;
  NameScope& scope_;
  ExprPrinter* printer_ = nullptr;
  std::vector<std::string> preamble_;
  std::map<int, Loop> loops_;  // open Python loops by inner loop
  std::map<int, std::string> starts_;
  std::map<std::string, std::string> hoisted_;  // "<tile dim><suffix>" -> name
  std::map<std::string, std::string> indices_;
  std::map<std::string, std::string> guarded_indices_;  // None where the guard does not hold
  std::map<int, std::string> partial_;                  // partial_condition names
};

}  // namespace helionc::backend::pallas::kernel_body
