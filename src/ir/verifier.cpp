#include "ir/verifier.h"

#include <fmt/format.h>

#include <set>

#include "ir/visitor.h"

namespace helionc::ir {

namespace {

class Verifier final : public Visitor {
 public:
  explicit Verifier(const Kernel& kernel) : kernel_(kernel) {}

  std::vector<std::string> run() {
    for (const Param& param : kernel_.params) check_binding(param.binding, "parameter");
    for (const TileDim& dim : kernel_.tile_dims) {
      if (dim.id < 0 || dim.id >= static_cast<int>(kernel_.tile_dims.size()) ||
          &kernel_.tile_dims[dim.id] != &dim) {
        fail(fmt::format("tile dimension `{}` has id {} out of place", dim.name, dim.id));
      }
      if (!dim.extent) fail(fmt::format("tile dimension `{}` has no extent", dim.name));
      if (dim.block.kind == BlockSource::Kind::kTunable &&
          (dim.block.tunable < 0 || dim.block.tunable >= kernel_.num_tunable_blocks)) {
        fail(fmt::format("tile dimension `{}` uses tunable block {} of {}", dim.name,
                         dim.block.tunable, kernel_.num_tunable_blocks));
      }
    }
    visit(kernel_.body);
    return std::move(problems_);
  }

  void visit_node(const VarRef& node) override {
    check_binding(node.binding, "reference");
    if (valid(node.binding) && depth_ == 0 &&
        kernel_.bindings[node.binding].origin == Binding::Origin::kDevice) {
      fail(fmt::format("device value `{}` used in host code", kernel_.bindings[node.binding].name));
    }
  }

  // intrinsics.def's arity and place columns.
  void visit_node(const Call& node) override {
    const int arity = intrinsic_arity(node.op);
    if (arity >= 0 && static_cast<int>(node.args.size()) != arity) {
      fail(fmt::format("`{}` called with {} arguments instead of {}", intrinsic_name(node.op),
                       node.args.size(), arity));
    }
    const IntrinsicPlace place = intrinsic_place(node.op);
    if (depth_ == 0 && place == IntrinsicPlace::kDevice) {
      fail(fmt::format("device intrinsic `{}` in host code", intrinsic_name(node.op)));
    }
    if (depth_ > 0 && place == IntrinsicPlace::kHost) {
      fail(fmt::format("host intrinsic `{}` in device code", intrinsic_name(node.op)));
    }
    Visitor::visit_node(node);
  }

  void visit_node(const Load& node) override {
    if (depth_ == 0) fail("load outside a tile loop");
    check_index(node.index);
    Visitor::visit_node(node);
  }

  void visit_node(const Store& node) override {
    if (depth_ == 0) fail("store outside a tile loop");
    check_index(node.index);
    Visitor::visit_node(node);
  }

  void visit_node(const Let& node) override {
    for (int target : node.targets) check_binding(target, "let target");
    if (!node.unpack && node.targets.size() != 1) fail("a let binding several targets");
    if (node.unpack && node.value->type.kind != TypeKind::kTuple &&
        node.value->type.kind != TypeKind::kShape) {
      fail("tuple unpacking of a value that is not a tuple");
    }
    if (node.unpack && node.value->type.rank >= 0 &&
        node.value->type.rank != static_cast<int>(node.targets.size())) {
      fail("tuple unpacking into a different number of targets");
    }
    Visitor::visit_node(node);
  }

  void visit_node(const StaticLoop& node) override {
    check_binding(node.var, "static loop variable");
    for (const TileLoop::Carry& carry : node.carried) {
      for (int binding : {carry.init, carry.phi, carry.next, carry.result}) {
        check_binding(binding, "carried value");
      }
    }
    if (depth_ == 0) fail("a static loop outside device code");
    Visitor::visit_node(node);
  }

  void visit_node(const TileLoop& node) override {
    for (int dim : node.tile_dims) {
      if (dim < 0 || dim >= static_cast<int>(kernel_.tile_dims.size())) {
        fail(fmt::format("loop over unknown tile dimension {}", dim));
      } else {
        open_dims_.insert(dim);
      }
    }
    for (int var : node.loop_vars) check_binding(var, "loop variable");
    for (const TileLoop::Carry& carry : node.carried) {
      for (int binding : {carry.init, carry.phi, carry.next, carry.result}) {
        check_binding(binding, "carried value");
      }
    }
    if (!node.carried.empty() && depth_ == 0) fail("a launch loop with carried values");
    ++depth_;
    Visitor::visit_node(node);
    --depth_;
    for (int dim : node.tile_dims) open_dims_.erase(dim);
  }

 private:
  bool valid(int binding) const {
    return binding >= 0 && binding < static_cast<int>(kernel_.bindings.size());
  }

  void check_binding(int binding, const char* what) {
    if (!valid(binding)) fail(fmt::format("{} names unknown binding {}", what, binding));
  }

  void check_index(const Index& index) {
    for (const IndexItem& item : index) {
      const bool tiled =
          item.kind == IndexItem::Kind::kTile || item.kind == IndexItem::Kind::kVariadic;
      if (tiled && !open_dims_.count(item.tile_dim)) {
        fail(fmt::format("index uses tile dimension {} outside its loop", item.tile_dim));
      }
      if ((item.kind == IndexItem::Kind::kScalar || item.kind == IndexItem::Kind::kGather) &&
          !item.scalar) {
        fail("scalar or gather index without value");
      }
    }
  }

  void fail(std::string message) {
    problems_.push_back(fmt::format("kernel `{}`: {}", kernel_.name, std::move(message)));
  }

  const Kernel& kernel_;
  std::set<int> open_dims_;
  int depth_ = 0;
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> verify_kernel(const Kernel& kernel) { return Verifier(kernel).run(); }

}  // namespace helionc::ir
