#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "frontend/function_table.h"
#include "ir/dtype.h"
#include "lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::first_error;
using helionc::testing::lower;

TEST_CASE("an undefined name is reported at its position") {
  CHECK(first_error(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile] + yy
    return out
)") == "k.py:9:31: error: undefined name `yy`");
}

TEST_CASE("a rank mismatch names the evidence") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty_like(x)
    for tile_m in hl.tile(m):
        out[tile_m, :] = x[tile_m]
    return out
)");
  const std::string text = result->errors();
  CHECK(text.find("k.py:10:26: error: `x` has 2 dimensions but is indexed with 1") == 0);
  CHECK(text.find("k.py:7:5: note: the rank of `x` was fixed here") != std::string::npos);
}

TEST_CASE("64-bit floating-point dtypes are rejected") {
  CHECK(first_error(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile].to(torch.float64)
    return out
)") == "k.py:9:32: error: `torch.float64` is a 64-bit type and TPUs have none; use `torch.int32` "
       "or `torch.float32`");
}

TEST_CASE("int64 is taken as int32, with a warning") {
  CHECK(first_error(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile].to(torch.int64)
    return out
)") == "k.py:9:32: warning: `torch.int64` is taken as int32: TPUs have no 64-bit integers (JAX "
       "without x64 does the same); values must fit in 32 bits [-Wnarrowed-dtype]");
}

TEST_CASE("a tile used after its loop points at the loop's end") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile]
    y = tile
    return out
)");
  const std::string text = result->errors();
  CHECK(text.find("k.py:10:9: error: tile `tile` is used outside the loop that defines it") == 0);
  CHECK(text.find("note: the loop ends here") != std::string::npos);
}

TEST_CASE("one error per broken statement, and no cascade from its names") {
  auto result = lower(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    m, n = x.frobnicate()
    out = torch.empty([m, n], device=x.device)
    for tile in hl.tile([m, n]):
        out[tile] = x[tile]
    return out
)");
  CHECK(result->diags.error_count() == 1);
}

TEST_CASE("data-dependent control flow suggests torch.where") {
  CHECK(first_error(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        v = x[tile]
        if v > 0:
            out[tile] = v
    return out
)") == "k.py:10:12: error: `if` on a tile of values is not supported (each element has its "
       "own answer); use `torch.where(cond, a, b)`, or reduce the tile first (`.any()`, `.all()`, "
       "`.sum()`)");
}

TEST_CASE("every name did-you-mean suggests is one the frontend lowers") {
  // A suggestion the compiler then refuses as unknown would send the user in a circle: each
  // listed function (called on a tile), dtype (passed to `.to`) and method (on a tile) must get
  // past the unknown-name errors, whatever its arguments make of it.
  for (std::string_view name : helionc::frontend::known_function_names()) {
    std::string shown(name);
    if (shown.starts_with("helion.language.")) shown = "hl." + shown.substr(16);
    const bool dtype =
        shown.starts_with("torch.") &&
        helionc::ir::torch_dtype_from_attr(std::string_view(shown).substr(6)).has_value();
    const std::string use =
        dtype ? fmt::format("x[tile].to({})", shown) : fmt::format("{}(x[tile])", shown);
    const std::string error = first_error(fmt::format(R"(import math
@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = {}
    return out
)",
                                                      use));
    INFO(name << ": " << error);
    // Forms lowered only as a statement or a loop's head (`out = torch.empty(...)`,
    // `for t in hl.static_range(...)`, `hl.store(...)`) are names the frontend knows too.
    if (contains(" torch.empty hl.jagged_tile hl.register_block_size hl.static_range hl.store ",
                 fmt::format(" {} ", shown))) {
      continue;
    }
    CHECK_FALSE(contains(error, "is not supported by helionc"));
    CHECK_FALSE(contains(error, "cannot be called"));
  }
  // Methods of tiles, or else of whole tensors in host code.
  for (std::string_view method : helionc::frontend::known_method_names()) {
    const std::string on_tile = first_error(fmt::format(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile].{}()
    return out
)",
                                                        method));
    if (!contains(on_tile, "the tile method")) continue;
    const std::string on_tensor = first_error(fmt::format(R"(@helion.kernel
def f(x: torch.Tensor) -> torch.Tensor:
    y = x.{}()
    return x
)",
                                                          method));
    INFO(method << ": " << on_tile << "; " << on_tensor);
    CHECK_FALSE(contains(on_tensor, "the tensor method"));
  }
}

TEST_CASE("misspelled functions, methods and names get a did-you-mean") {
  const auto error_for = [](const std::string& expression) {
    return first_error(R"(@helion.kernel
def f(x: torch.Tensor, factor: float) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = )" +
                       expression + R"(
    return out
)");
  };
  CHECK(contains(error_for("torch.exmp(x[tile])"), "; did you mean `torch.exp`?"));
  CHECK(contains(error_for("hl.zerso([tile])"), "; did you mean `hl.zeros`?"));
  CHECK(contains(error_for("x[tile].sigmod()"), "; did you mean `.sigmoid()`?"));
  CHECK(contains(error_for("x[tile].to(torch.flaot32)"), "; did you mean `torch.float32`?"));
  CHECK(contains(error_for("x[tile] * factr"), "; did you mean `factor`?"));
  CHECK_FALSE(contains(error_for("torch.frobnicate(x[tile])"), "did you mean"));
}
