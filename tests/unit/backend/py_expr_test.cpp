// The expression printer's parentheses: only where Python needs them.
#include <catch2/catch.hpp>

#include "backend/pallas/expr_printer.h"
#include "backend/pallas/host_state.h"
#include "backend/pallas/py_expr.h"
#include "passes/kernels/test_kernels.h"

namespace helionc::backend::pallas {
namespace {

PyExpr name(const char* text) { return py_atom(text); }

TEST_CASE("binary operators follow Python's precedence and associativity") {
  const PyExpr a = name("a"), b = name("b"), c = name("c");
  CHECK(py_binary("+", a, py_binary("*", b, c)).text == "a + b * c");
  CHECK(py_binary("*", py_binary("+", a, b), c).text == "(a + b) * c");
  CHECK(py_binary("-", py_binary("-", a, b), c).text == "a - b - c");
  CHECK(py_binary("-", a, py_binary("-", b, c)).text == "a - (b - c)");
  CHECK(py_binary("/", a, py_binary("*", b, c)).text == "a / (b * c)");
  CHECK(py_binary("//", py_binary("%", a, b), c).text == "a % b // c");
  CHECK(py_binary("&", py_binary("<", a, b), py_binary(">", b, c)).text == "(a < b) & (b > c)");
  CHECK(py_binary("|", py_binary("&", a, b), c).text == "a & b | c");
  CHECK(py_binary("&", py_binary("|", a, b), c).text == "(a | b) & c");
}

TEST_CASE("powers bind tighter than a unary minus on their left and associate right") {
  const PyExpr x = name("x"), two = name("2");
  CHECK(py_unary("-", py_binary("**", x, two)).text == "-x ** 2");
  CHECK(py_binary("**", py_unary("-", x), two).text == "(-x) ** 2");
  CHECK(py_binary("**", x, py_unary("-", two)).text == "x ** -2");
  CHECK(py_binary("**", x, py_binary("**", x, two)).text == "x ** x ** 2");
  CHECK(py_binary("**", py_binary("**", x, x), two).text == "(x ** x) ** 2");
  CHECK(py_unary("-", py_binary("*", x, two)).text == "-(x * 2)");
  CHECK(py_unary("-", py_unary("-", x)).text == "--x");
}

TEST_CASE("comparisons never chain by accident, boolean operators nest") {
  const PyExpr a = name("a"), b = name("b"), c = name("c");
  CHECK(py_binary("==", py_binary("<", a, b), c).text == "(a < b) == c");
  CHECK(py_binary("<", a, py_binary("+", b, c)).text == "a < b + c");
  CHECK(py_binary("and", py_unary("not", a), b).text == "not a and b");
  CHECK(py_unary("not", py_binary("and", a, b)).text == "not (a and b)");
  CHECK(py_binary("or", py_binary("and", a, b), c).text == "a and b or c");
  CHECK(py_binary("and", py_binary("or", a, b), c).text == "(a or b) and c");
}

TEST_CASE("conditional expressions nest on the right and bind loosest") {
  const PyExpr a = name("a"), b = name("b"), c = name("c"), d = name("d"), e = name("e");
  CHECK(py_conditional(a, c, b).text == "a if c else b");
  CHECK(py_conditional(a, c, py_conditional(b, d, e)).text == "a if c else b if d else e");
  CHECK(py_conditional(py_conditional(a, c, b), d, e).text == "(a if c else b) if d else e");
  CHECK(py_conditional(a, py_conditional(c, d, e), b).text == "a if (c if d else e) else b");
  CHECK(py_conditional(py_binary("+", a, b), py_binary("or", c, d), e).text ==
        "a + b if c or d else e");
  CHECK(py_binary("+", py_conditional(a, c, b), e).text == "(a if c else b) + e");
}

TEST_CASE("primaries: attribute access and calls parenthesise compound operands") {
  CHECK(py_primary(py_binary("+", name("a"), name("b"))) == "(a + b)");
  CHECK(py_primary(py_unary("-", name("a"))) == "(-a)");
  CHECK(py_primary(py_call("jnp.exp", {"a"})) == "jnp.exp(a)");
  CHECK(py_tuple({}) == "()");
  CHECK(py_tuple({"a"}) == "(a,)");
  CHECK(py_tuple({"a", "b"}) == "(a, b)");
  CHECK(py_string("say \"hi\"\\") == "\"say \\\"hi\\\"\\\\\"");
}

TEST_CASE("IR expressions print with minimal parentheses and jnp names") {
  testing::KernelBuilder b("k");
  const int x = b.param("x", ir::Type::tile_tensor({ir::Dim::unit()}, ir::ScalarType::kFloat32));
  const int y = b.param("y", ir::Type::tile_tensor({ir::Dim::unit()}, ir::ScalarType::kFloat32));
  const int s = b.param("s", ir::Type::scalar(ir::TypeKind::kFloat));
  DiagnosticEngine diags;
  HostContext context(b.kernel(), diags);
  OptionalImports imports;
  ExprPrinter printer(b.kernel(), context, imports, diags);
  using ir::BinaryOp;
  auto bin = [&](BinaryOp op, const ir::ExprPtr& l, const ir::ExprPtr& r) {
    return b.binary(op, l, r);
  };
  const ir::ExprPtr neg_one = ir::IntImm::make(-1, {});
  CHECK(printer.text(bin(BinaryOp::kMul, bin(BinaryOp::kAdd, b.ref(x), b.ref(y)), b.ref(s))) ==
        "(x + y) * s");
  CHECK(printer.text(bin(BinaryOp::kPow, neg_one, b.ref(s))) == "(-1) ** s");
  CHECK(printer.text(bin(BinaryOp::kPow, b.ref(s), neg_one)) == "s ** -1");
  const ir::ExprPtr cast = ir::Call::make(
      ir::Intrinsic::kCast,
      {bin(BinaryOp::kSub, b.ref(x), b.ref(y)), ir::DtypeImm::make(ir::ScalarType::kBFloat16, {})},
      b.ref(x)->type, {});
  CHECK(printer.text(cast) == "(x - y).astype(jnp.bfloat16)");
  CHECK(printer.text(b.call(ir::Intrinsic::kSigmoid, {b.ref(x)})) == "jax.nn.sigmoid(x)");
  CHECK(printer.text(b.call(ir::Intrinsic::kExpm1, {b.ref(x)})) == "_expm1(x)");
  CHECK(imports.helpers.count("expm1") == 1);
  CHECK(printer.text(b.call(ir::Intrinsic::kSqrt, {b.ref(s)})) == "math.sqrt(s)");
  CHECK(imports.math);
  const ir::ExprPtr zeros = ir::Call::make(
      ir::Intrinsic::kFullLike, {b.ref(x), ir::IntImm::make(0, {}), ir::NoneImm::make({})},
      b.ref(x)->type, {});
  CHECK(printer.text(zeros) == "jnp.zeros_like(x)");
  const ir::ExprPtr clamp = ir::Call::make(
      ir::Intrinsic::kClamp, {b.ref(x), ir::NoneImm::make({}), b.ref(s)}, b.ref(x)->type, {});
  CHECK(printer.text(clamp) == "jnp.clip(x, max=s)");
  CHECK(printer.ok());
}

}  // namespace
}  // namespace helionc::backend::pallas
