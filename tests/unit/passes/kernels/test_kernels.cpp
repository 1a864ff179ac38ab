#include "passes/kernels/test_kernels.h"

namespace helionc::testing {

using ir::Binding;
using ir::Dim;
using ir::ExprPtr;
using ir::Intrinsic;
using ir::Type;
using ir::TypeKind;

namespace {
constexpr const char* kFakeSource =
    "line 1\nline 2\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8\nline 9\nline 10\n";
}

KernelBuilder::KernelBuilder(std::string name)
    : file_(std::make_shared<SourceFile>("k.py", kFakeSource)) {
  kernel_.name = std::move(name);
}

SourceRange KernelBuilder::line(int line) const {
  const uint32_t begin = file_->line_offset(static_cast<uint32_t>(line));
  return file_->range(begin, begin + 4);
}

int KernelBuilder::param(const std::string& name, Type type, ExprPtr default_value) {
  const int binding = bind(name, std::move(type), Binding::Origin::kParam);
  kernel_.params.push_back({binding, std::move(default_value)});
  return binding;
}

int KernelBuilder::bind(const std::string& name, Type type, Binding::Origin origin) {
  kernel_.bindings.push_back({name, std::move(type), origin, {}});
  return static_cast<int>(kernel_.bindings.size()) - 1;
}

ExprPtr KernelBuilder::ref(int binding) const {
  return ir::VarRef::make(binding, kernel_.bindings[binding].type, {});
}

int KernelBuilder::unpack_shape(const std::vector<std::string>& names, int tensor, int at) {
  std::vector<int> targets;
  targets.reserve(names.size());
  for (const std::string& name : names) {
    targets.push_back(bind(name, Type::scalar(TypeKind::kInt), Binding::Origin::kHost));
  }
  const int rank = static_cast<int>(names.size());
  kernel_.body.push_back(ir::Let::make_unpack(
      targets, ir::Call::make(Intrinsic::kShapeOf, {ref(tensor)}, Type::shape(rank), {}),
      line(at)));
  return targets.front();
}

int KernelBuilder::empty_like(const std::string& name, int like, int at, ExprPtr fill) {
  // A copy: bind() appends to kernel_.bindings, which may move the element `like` names.
  const Type type = kernel_.bindings[like].type;
  const int out = bind(name, Type::tensor(type.rank, type.dtype), Binding::Origin::kHost);
  kernel_.body.push_back(ir::Alloc::make(
      out, ir::Call::make(Intrinsic::kShapeOf, {ref(like)}, Type::shape(type.rank), {}),
      ir::Call::make(Intrinsic::kDtypeOf, {ref(like)}, Type::dtype_value(), {}), std::move(fill),
      line(at)));
  return out;
}

int KernelBuilder::tile_dim(const std::string& name, ExprPtr extent, int tunable, bool variadic,
                            ExprPtr begin) {
  ir::TileDim dim;
  dim.id = static_cast<int>(kernel_.tile_dims.size());
  dim.name = name;
  dim.begin = std::move(begin);
  dim.extent = std::move(extent);
  dim.variadic = variadic;
  if (tunable >= 0) {
    dim.block.kind = ir::BlockSource::Kind::kTunable;
    dim.block.tunable = tunable;
    kernel_.num_tunable_blocks = std::max(kernel_.num_tunable_blocks, tunable + 1);
  } else {
    dim.block.kind = ir::BlockSource::Kind::kGrid;
  }
  kernel_.tile_dims.push_back(std::move(dim));
  return kernel_.tile_dims.back().id;
}

ExprPtr KernelBuilder::load(int tensor, ir::Index index, std::vector<Dim> dims, int at) {
  return ir::Load::make(ref(tensor), std::move(index),
                        Type::tile_tensor(std::move(dims), kernel_.bindings[tensor].type.dtype),
                        line(at));
}

ir::StmtPtr KernelBuilder::store(int tensor, ir::Index index, ExprPtr value, int at) {
  return ir::Store::make(ref(tensor), std::move(index), std::move(value), line(at));
}

ExprPtr KernelBuilder::binary(ir::BinaryOp op, ExprPtr lhs, ExprPtr rhs) {
  Type type = lhs->type.kind == TypeKind::kTileTensor ? lhs->type : rhs->type;
  return ir::Binary::make(op, std::move(lhs), std::move(rhs), std::move(type), {});
}

ExprPtr KernelBuilder::call(Intrinsic op, std::vector<ExprPtr> args) {
  Type type = args.front()->type;
  return ir::Call::make(op, std::move(args), std::move(type), {});
}

ir::IndexItem KernelBuilder::tile(int dim) {
  return {ir::IndexItem::Kind::kTile, dim, nullptr, {}};
}
ir::IndexItem KernelBuilder::full() { return {ir::IndexItem::Kind::kFull, -1, nullptr, {}}; }
ir::IndexItem KernelBuilder::none() { return {ir::IndexItem::Kind::kNewAxis, -1, nullptr, {}}; }
ir::IndexItem KernelBuilder::scalar(ExprPtr value) {
  return {ir::IndexItem::Kind::kScalar, -1, std::move(value), {}};
}
ir::IndexItem KernelBuilder::variadic(int dim) {
  return {ir::IndexItem::Kind::kVariadic, dim, nullptr, {}};
}

ir::Module KernelBuilder::module() {
  ir::Module module;
  module.source = file_.get();
  module.kernels.push_back(kernel_);
  return module;
}

KernelBuilder add_kernel() {
  KernelBuilder b("add");
  const int x = b.param("x", Type::tensor(-1));
  const int y = b.param("y", Type::tensor(-1));
  const int out = b.empty_like("out", x, 2);
  const ExprPtr shape = ir::Call::make(Intrinsic::kShapeOf, {b.ref(out)}, Type::shape(-1), {});
  const int t = b.tile_dim("tile", shape, 0, /*variadic=*/true);
  const int tile = b.bind("tile", Type::tile({t}, true), Binding::Origin::kLoopVar);
  const std::vector<Dim> dims = {Dim::variadic(t)};
  ExprPtr sum = b.binary(ir::BinaryOp::kAdd, b.load(x, {KernelBuilder::variadic(t)}, dims, 4),
                         b.load(y, {KernelBuilder::variadic(t)}, dims, 4));
  b.kernel().body.push_back(ir::TileLoop::make(
      {t}, {tile}, {b.store(out, {KernelBuilder::variadic(t)}, sum, 4)}, b.line(3)));
  b.kernel().body.push_back(ir::Return::make({b.ref(out)}, b.line(5)));
  return b;
}

KernelBuilder bias_relu_kernel() {
  KernelBuilder b("bias_relu");
  const int x = b.param("x", Type::tensor(2));
  const int bias = b.param("bias", Type::tensor(1));
  const int m = b.unpack_shape({"m", "n"}, x, 2);
  const int n = m + 1;
  const int out = b.empty_like("out", x, 3);
  const int tm = b.tile_dim("tile_m", b.ref(m), 0);
  const int tn = b.tile_dim("tile_n", b.ref(n), 1);
  const int vm = b.bind("tile_m", Type::tile({tm}, false), Binding::Origin::kLoopVar);
  const int vn = b.bind("tile_n", Type::tile({tn}, false), Binding::Origin::kLoopVar);
  using K = KernelBuilder;
  ExprPtr sum = b.binary(ir::BinaryOp::kAdd,
                         b.load(x, {K::tile(tm), K::tile(tn)}, {Dim::tile(tm), Dim::tile(tn)}, 5),
                         b.load(bias, {K::tile(tn)}, {Dim::tile(tn)}, 5));
  ExprPtr relu = b.call(Intrinsic::kRelu, {sum});
  b.kernel().body.push_back(ir::TileLoop::make(
      {tm, tn}, {vm, vn}, {b.store(out, {K::tile(tm), K::tile(tn)}, relu, 5)}, b.line(4)));
  b.kernel().body.push_back(ir::Return::make({b.ref(out)}, b.line(6)));
  return b;
}

KernelBuilder rows_kernel() {
  KernelBuilder b("rows");
  const int x = b.param("x", Type::tensor(2));
  const int w = b.param("w", Type::tensor(1));
  const int scale =
      b.param("scale", Type::scalar(TypeKind::kFloat), ir::FloatImm::make(0.5, "0.5", {}));
  const int m = b.unpack_shape({"m", "n"}, x, 2);
  const int out = b.empty_like("out", x, 3, ir::IntImm::make(0, {}));
  const int g = b.tile_dim("i", b.ref(m), -1);
  const int i = b.bind("i", Type::scalar(TypeKind::kInt), Binding::Origin::kLoopVar);
  using K = KernelBuilder;
  ExprPtr row = b.load(x, {K::scalar(b.ref(i)), K::full()}, {Dim::full(x, 1)}, 5);
  ExprPtr weight = b.load(w, {K::none(), K::full()}, {Dim::unit(), Dim::full(w, 0)}, 5);
  ExprPtr scaled = b.binary(ir::BinaryOp::kMul, row, b.ref(scale));
  // x[i, :] * scale + w[None, :] has w's (1, n) shape: stored into (n,) with leading unit dropped.
  ExprPtr value = ir::Binary::make(ir::BinaryOp::kAdd, scaled, weight, weight->type, {});
  b.kernel().body.push_back(ir::TileLoop::make(
      {g}, {i}, {b.store(out, {K::scalar(b.ref(i)), K::full()}, value, 5)}, b.line(4)));
  b.kernel().body.push_back(ir::Return::make({b.ref(out)}, b.line(6)));
  return b;
}

KernelBuilder shifted_kernel(ExprPtr fill) {
  KernelBuilder b("shifted");
  const int x = b.param("x", Type::tensor(1));
  const int out = b.empty_like("out", x, 2, std::move(fill));
  const ExprPtr size = ir::Call::make(Intrinsic::kSize, {b.ref(x), ir::IntImm::make(0, {})},
                                      Type::scalar(TypeKind::kInt), {});
  const int t = b.tile_dim("tile", size, 0, false, ir::IntImm::make(3, {}));
  const int v = b.bind("tile", Type::tile({t}, false), Binding::Origin::kLoopVar);
  using K = KernelBuilder;
  b.kernel().body.push_back(ir::TileLoop::make(
      {t}, {v}, {b.store(out, {K::tile(t)}, b.load(x, {K::tile(t)}, {Dim::tile(t)}, 4), 4)},
      b.line(3)));
  b.kernel().body.push_back(ir::Return::make({b.ref(out)}, b.line(5)));
  return b;
}

}  // namespace helionc::testing
