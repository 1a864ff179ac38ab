// Issue 12: one-element tuples, the in-place return contract, module-level names.
#include <catch2/catch.hpp>

#include "frontend/lowering_fixture.h"

using helionc::testing::contains;
using helionc::testing::lower;

TEST_CASE("a one-element unpacking stays an unpacking, unlike binding the whole shape") {
  auto result = lower(R"(@helion.kernel()
def k(x: torch.Tensor) -> tuple[torch.Tensor]:
    (n,) = x.size()
    whole = x.size()
    out = torch.empty([n], dtype=x.dtype, device=x.device)
    for tile in hl.tile(n):
        out[tile] = x[tile]
    return (out,)
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  INFO(ir);
  CHECK(contains(ir, "let (n: int,) = shape_of(x)"));
  CHECK(contains(ir, "let whole: shape<1> = shape_of(x)"));
  CHECK(contains(ir, "return out,"));
}

TEST_CASE("a kernel that updates a parameter returns it, after its own results") {
  auto none = lower(R"(@helion.kernel()
def k(x: torch.Tensor, y: torch.Tensor) -> None:
    for tile in hl.tile(x.size(0)):
        x[tile] = x[tile] + y[tile]
)");
  INFO(none->errors());
  REQUIRE_FALSE(none->diags.has_errors());
  CHECK(contains(none->ir(), "return x\n"));

  auto both = lower(R"(@helion.kernel()
def k(x: torch.Tensor, total: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * 2
        total[tile] = total[tile] + x[tile]
    return out
)");
  REQUIRE_FALSE(both->diags.has_errors());
  CHECK(contains(both->ir(), "return out, total"));
  CHECK(contains(both->errors(), "[-Win-place-result]"));
}

TEST_CASE("module-level constants are compiled in; the body reads the module's last value") {
  auto result = lower(R"(_SCALE = 2.0
@helion.kernel()
def k(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile] * _SCALE
    return out
_SCALE = 0.25
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  CHECK(contains(result->ir(), "* 0.25"));
  CHECK_FALSE(contains(result->ir(), "* 2.0"));
}

TEST_CASE("a config given by name is read where the decorator stands") {
  auto result = lower(R"(BLOCK = 32
CONFIG = helion.Config(block_sizes=[BLOCK], pallas_loop_type="unroll")
@helion.kernel(config=CONFIG)
def k(x: torch.Tensor) -> torch.Tensor:
    out = torch.empty_like(x)
    for tile in hl.tile(x.size(0)):
        out[tile] = x[tile]
    return out
BLOCK = 64
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  REQUIRE(result->module.kernels.size() == 1);
  const auto& config = result->module.kernels[0].builtin_configs.at(0);
  CHECK(config.block_sizes == std::vector<int64_t>{32});
  CHECK(config.pallas_loop_type_for_all);
}

TEST_CASE("a kernel inside a function reads the function's names before its def") {
  auto result = lower(R"(BLOCK = 8
SCALE = 4.0
def make(flag):
    BLOCK = 32
    cfg = helion.Config(block_sizes=[BLOCK])
    SCALE = 0.5
    @helion.kernel(config=cfg)
    def k(x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        for tile in hl.tile(x.size(0)):
            out[tile] = x[tile] * SCALE
        return out
    return k
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  REQUIRE(result->module.kernels.size() == 1);
  CHECK(result->module.kernels[0].builtin_configs.at(0).block_sizes == std::vector<int64_t>{32});
  CHECK(contains(result->ir(), "* 0.5"));
  CHECK_FALSE(contains(result->ir(), "* 4.0"));
}

TEST_CASE("a function's name with no one value hides the module's and is not read") {
  // Assigned again after the def: the body sees whichever value holds when k is called.
  auto again = lower(R"(SCALE = 4.0
def make():
    SCALE = 0.5
    @helion.kernel()
    def k(x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        for tile in hl.tile(x.size(0)):
            out[tile] = x[tile] * SCALE
        return out
    SCALE = 2.0
    return k
)");
  CHECK(again->diags.has_errors());
  CHECK(contains(again->errors(), "`SCALE`"));
  CHECK_FALSE(contains(again->ir(), "* 4.0"));

  // A parameter of the function: known only when it runs.
  auto param = lower(R"(CONFIG = helion.Config(block_sizes=[8])
def make(CONFIG):
    @helion.kernel(config=CONFIG)
    def k(x: torch.Tensor) -> torch.Tensor:
        out = torch.empty_like(x)
        for tile in hl.tile(x.size(0)):
            out[tile] = x[tile]
        return out
    return k
)");
  CHECK(contains(param->errors(), "a parameter"));
}

TEST_CASE("tiles of two loops over one range read in the kernel pair row by row") {
  // Helion's nested_tile_sum: the second operand takes the first's tile dimension, its rows past
  // the loop's end zeros, and both loops are marked paired (their blocks start at the begin).
  auto result = lower(R"(@helion.kernel()
def f(x: torch.Tensor, y: torch.Tensor, offsets: torch.Tensor) -> torch.Tensor:
    _, a, b = x.size()
    out = torch.empty([offsets.size(0) - 1, a, b], dtype=torch.float32, device=x.device)
    for g in hl.grid(offsets.size(0) - 1):
        acc = hl.zeros([a, b], dtype=torch.float32)
        for tile_i in hl.tile(offsets[g], offsets[g + 1]):
            for tile_j in hl.tile(offsets[g], offsets[g + 1]):
                acc = acc + (x[tile_i, :, :] * y[tile_j, :, :]).sum(0)
        out[g, :, :] = acc
    return out
)");
  INFO(result->errors());
  REQUIRE_FALSE(result->diags.has_errors());
  const std::string ir = result->ir();
  CHECK(contains(ir, "block block_sizes[0] paired with tile_j"));
  CHECK(contains(ir, "block block_sizes[1] paired with tile_i"));
  CHECK(contains(ir,
                 "(load x[tile_i, :, :] * where(unsqueeze(unsqueeze((tile_j.index < "
                 "tile_j.end), 1), 2), load y[tile_j, :, :], full_like(load y[tile_j, :, :], 0, "
                 "None)))"));

  // Over a range known on the host the tiles are not paired: the precise error.
  auto host = lower(R"(@helion.kernel()
def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    n, d = x.size()
    out = torch.empty([d], dtype=torch.float32, device=x.device)
    for tile_d in hl.tile(d):
        acc = hl.zeros([tile_d], dtype=torch.float32)
        for tile_i in hl.tile(n):
            for tile_j in hl.tile(n):
                acc = acc + (x[tile_i, tile_d] * y[tile_j, tile_d]).sum(0)
        out[tile_d] = acc
    return out
)");
  CHECK(contains(host->errors(),
                 "combine the tiles `tile_i` and `tile_j` of two loops over one "
                 "range row by row"));
}
