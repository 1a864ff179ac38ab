// The reference backend on the hand-built kernels: what each tile loop becomes, and what a
// construct the reference cannot express does in the Pallas module and in --emit reference.
#include <catch2/catch.hpp>

#include "backend/reference/reference_module.h"
#include "passes/kernels/test_kernels.h"

namespace helionc::backend::reference {
namespace {

struct Printed {
  std::optional<std::string> text;
  std::string diagnostics;
};

ReferenceOptions options() {
  ReferenceOptions options;
  options.helionc_version = "9.9.9";
  options.source_path = "k.py";
  options.source_sha256 = "abc123";
  options.line_width = 0;
  return options;
}

Printed module_of(testing::KernelBuilder& builder) {
  DiagnosticEngine diags;
  Printed printed;
  printed.text = emit_reference_module(builder.module(), options(), diags);
  for (const Diagnostic& d : diags.diagnostics()) printed.diagnostics += d.message + "\n";
  return printed;
}

bool contains(const std::string& text, const std::string& part) {
  INFO(part);
  return text.find(part) != std::string::npos;
}

TEST_CASE("a tunable tile loop is one step over the loop's whole range") {
  testing::KernelBuilder b = testing::bias_relu_kernel();
  const Printed printed = module_of(b);
  REQUIRE(printed.text);
  const std::string& text = *printed.text;
  CHECK(contains(text, "import jax\nimport jax.numpy as jnp\n"));
  CHECK_FALSE(contains(text, "pallas"));
  CHECK(contains(text, "def reference_bias_relu(x, bias):"));
  CHECK(contains(text, "    tile_m = _RefTile(0, m)"));
  CHECK(contains(text, "    tile_n = _RefTile(0, n)"));
  CHECK(contains(text, "out = out.at[tile_m.begin:tile_m.end, tile_n.begin:tile_n.end].set("));
  CHECK(contains(text, "bias[tile_n.begin:tile_n.end]"));
  CHECK(contains(text, "    return out"));
}

TEST_CASE("an hl.grid loop is a Python loop over its ints, a begin is kept") {
  testing::KernelBuilder rows = testing::rows_kernel();
  const Printed grid = module_of(rows);
  REQUIRE(grid.text);
  CHECK(contains(*grid.text, "    for i in range(m):"));
  CHECK(contains(*grid.text, "        out = out.at[i, :].set("));

  testing::KernelBuilder shifted = testing::shifted_kernel(nullptr);
  const Printed begin = module_of(shifted);
  REQUIRE(begin.text);
  CHECK(contains(*begin.text, "tile = _RefTile(3, x.shape[0])"));
  // The range may be empty: no step then.
  CHECK(contains(*begin.text, "if tile.block_size > 0:"));
}

TEST_CASE("a rank-polymorphic tile slices every dimension") {
  testing::KernelBuilder b = testing::add_kernel();
  const Printed printed = module_of(b);
  REQUIRE(printed.text);
  CHECK(contains(*printed.text, "tile = _RefTiles(out.shape)"));
  CHECK(contains(*printed.text, "x[tile.slices] + y[tile.slices]"));
}

// bias_relu with `tile_n.id` added to the stored value.
testing::KernelBuilder with_tile_id() {
  testing::KernelBuilder b("block_ids");
  const int x = b.param("x", ir::Type::tensor(1));
  const int out = b.empty_like("out", x, 2);
  const ir::ExprPtr size = b.call(ir::Intrinsic::kSize, {b.ref(x), ir::IntImm::make(0, {})});
  const int t = b.tile_dim("tile", size, 0);
  const int tile = b.bind("tile", ir::Type::tile({t}, false), ir::Binding::Origin::kLoopVar);
  const ir::ExprPtr id =
      ir::TileAttr::make(t, ir::TileAttrKind::kId, ir::Type::scalar(ir::TypeKind::kInt), b.line(4));
  const ir::ExprPtr value = b.binary(
      ir::BinaryOp::kAdd, b.load(x, {testing::KernelBuilder::tile(t)}, {ir::Dim::tile(t)}, 4), id);
  b.kernel().body.push_back(ir::TileLoop::make(
      {t}, {tile}, {b.store(out, {testing::KernelBuilder::tile(t)}, value, 4)}, b.line(3)));
  b.kernel().body.push_back(ir::Return::make({b.ref(out)}, b.line(5)));
  return b;
}

TEST_CASE("a construct the reference cannot express is an error, or a raising function") {
  testing::KernelBuilder b = with_tile_id();
  const Printed refused = module_of(b);
  CHECK_FALSE(refused.text);
  CHECK(contains(refused.diagnostics,
                 "the reference of kernel `block_ids` cannot express `tile.id`: the config "
                 "chooses this tile's block size"));

  DiagnosticEngine diags;
  testing::KernelBuilder again = with_tile_id();
  const std::optional<ReferenceSection> section =
      reference_section(again.module(), options(), diags);
  REQUIRE(section);
  CHECK_FALSE(diags.has_errors());
  CHECK(contains(section->text,
                 "def reference_block_ids(*_, **__):\n"
                 "    raise NotImplementedError(\"k.py:4: the reference of kernel "
                 "`block_ids` cannot express `tile.id`"));
  CHECK(contains(section->text, "class _RefTile:"));  // the prelude comes first
}

}  // namespace
}  // namespace helionc::backend::reference
