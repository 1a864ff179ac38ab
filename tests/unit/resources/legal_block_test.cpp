// passes::legal_block against the Python it mirrors: the prelude's `_legal_block` (templates/
// prelude.py.tmpl), run by the build's Python 3 on a table of cases. The prelude's top level
// only defines functions and tables, so it is executed with stand-ins for jax and pallas.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "passes/legal_block.h"

namespace helionc::passes {
namespace {

struct Case {
  std::optional<int64_t> requested;
  int64_t size;
  BlockRole role;
  int64_t other;
  std::vector<int64_t> axes;  // lengths of the axes the blocks land on, when they may differ
  std::vector<ir::ScalarType> dtypes = {};  // of the arrays whose sublane axis they land on
  int64_t rows = 0;                         // the rows a window reads of every block
};

std::vector<Case> cases() {
  std::vector<Case> table;
  const std::vector<std::optional<int64_t>> requests = {
      std::nullopt, 1,   7,   8,   9,   64,   96,   100,  127,  128,
      129,          200, 256, 300, 512, 1000, 1024, 5000, 8192, 100000};
  const std::vector<int64_t> sizes = {1,   2,   7,   8,    9,    100,  127,  128,   129,    130,
                                      255, 256, 300, 1000, 1024, 4096, 5000, 65536, 1000003};
  const std::vector<int64_t> others = {1, 3, 300, 1024, 131072, 1000000};
  for (BlockRole role :
       {BlockRole::kLeading, BlockRole::kSublane, BlockRole::kLane, BlockRole::kFlat}) {
    for (const auto& requested : requests) {
      for (int64_t size : sizes) {
        // `other` only matters for the default; vary it there.
        if (requested) {
          table.push_back({requested, size, role, 1, {}});
          // 8-bit arrays (32-row sublane blocks) beside wider ones; bool is 32-bit in VMEM.
          table.push_back(
              {requested, size, role, 1, {}, {ir::ScalarType::kFloat32, ir::ScalarType::kInt8}});
          table.push_back(
              {requested, size, role, 1, {size, 2 * size + 1}, {ir::ScalarType::kFloat8E5M2}});
          table.push_back(
              {requested, size, role, 1, {}, {ir::ScalarType::kBool, ir::ScalarType::kBFloat16}});
          // A loop over part of a longer input axis; and axes that turn out equal.
          table.push_back({requested, size, role, 1, {size, 2 * size + 1}});
          table.push_back({requested, size, role, 1, {size, size}});
        } else {
          for (int64_t other : others) table.push_back({requested, size, role, other, {}});
          for (int64_t rows : {3, 4, 9, 200}) {
            table.push_back({requested, size, role, 256, {}, {}, rows});
            table.push_back({requested, size, role, 1, {size, 2 * size + 1}, {}, rows});
          }
        }
      }
    }
  }
  return table;
}

std::string run(const std::string& command) {
  std::string output;
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe != nullptr);
  char buffer[4096];
  size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  CHECK(pclose(pipe) == 0);
  return output;
}

TEST_CASE("legal_block agrees with the prelude's _legal_block") {
  const std::filesystem::path prelude =
      std::filesystem::path(HELIONC_SOURCE_DIR) / "templates" / "prelude.py.tmpl";
  REQUIRE(std::filesystem::exists(prelude));
  const std::vector<Case> table = cases();
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::filesystem::path input = dir / fmt::format("helionc_legal_block_{}.txt", getpid());
  const std::filesystem::path script = dir / fmt::format("helionc_legal_block_{}.py", getpid());
  {
    std::ofstream out(input);
    for (const Case& c : table) {
      out << (c.requested ? std::to_string(*c.requested) : "None") << ' ' << c.size << ' '
          << block_role_name(c.role) << ' ' << c.rows << ' ' << c.other;
      for (int64_t axis : c.axes) out << ' ' << axis;
      out << " ;";  // then each dtype as its itemsize and numpy kind: `1i`, `4f`, `1b`
      for (ir::ScalarType t : c.dtypes) {
        out << ' ' << ir::dtype_bits(t) / 8
            << (t == ir::ScalarType::kBool ? 'b'
                : ir::is_floating(t)       ? 'f'
                                           : 'i');
      }
      out << '\n';
    }
    std::ofstream py(script);
    py << "import sys\n"
          "namespace = {'jax': None, 'jnp': None, 'pl': None, 'pltpu': None}\n"
          "path = sys.argv[1]\n"
          "exec(compile(open(path).read(), path, 'exec'), namespace)\n"
          "legal = namespace['_legal_block']\n"
          "class Dtype:  # the numpy dtype's fields _legal_block reads\n"
          "    def __init__(self, text):\n"
          "        self.itemsize, self.kind = int(text[:-1]), text[-1]\n"
          "for line in open(sys.argv[2]):\n"
          "    head, tail = line.split(';')\n"
          "    requested, size, role, rows, other, *axes = head.split()\n"
          "    requested = None if requested == 'None' else int(requested)\n"
          "    axes = tuple(int(a) for a in axes)\n"
          "    dtypes = tuple(Dtype(d) for d in tail.split())\n"
          "    print(legal(requested, int(size), role, int(other), axes=axes, dtypes=dtypes,\n"
          "                rows=int(rows)))\n";
  }
  const std::string output = run(fmt::format("'{}' '{}' '{}' '{}'", HELIONC_PYTHON, script.string(),
                                             prelude.string(), input.string()));
  std::filesystem::remove(input);
  std::filesystem::remove(script);
  std::istringstream lines(output);
  size_t compared = 0;
  for (const Case& c : table) {
    std::string line;
    REQUIRE(std::getline(lines, line));
    INFO(fmt::format("_legal_block({}, {}, \"{}\", {}, axes=({}))",
                     c.requested ? std::to_string(*c.requested) : "None", c.size,
                     block_role_name(c.role), c.other, fmt::join(c.axes, ", ")));
    CHECK(std::to_string(
              legal_block(c.requested, c.size, c.role, c.other, c.axes, c.dtypes, c.rows)) == line);
    ++compared;
  }
  CHECK(compared == table.size());
  CHECK(table.size() > 500);
}

TEST_CASE("legal_block on hand-picked cases") {
  // A lane loop over the first 64 of 300 columns: 64 is the output's whole axis but no legal
  // block of the input's, so a multiple of 128, legal on both.
  CHECK(legal_block(64, 64, BlockRole::kLane, 1, {300, 64}) == 128);
  CHECK(legal_block(512, 300, BlockRole::kLane, 1, {300, 64}) == 256);
  CHECK(legal_block(100, 1000, BlockRole::kSublane) == 96);
  CHECK(legal_block(100, 1000, BlockRole::kLane) == 128);    // at least one multiple
  CHECK(legal_block(2048, 1000, BlockRole::kLane) == 1000);  // the whole dimension
  CHECK(legal_block(std::nullopt, 100000, BlockRole::kFlat) == 8192);
  CHECK(legal_block(std::nullopt, 4096, BlockRole::kFlat) == 4096);
  CHECK(legal_block(std::nullopt, 4096, BlockRole::kSublane, 1024) == 128);
  CHECK(default_block(4096, BlockRole::kLane) == 512);
  // 8-bit arrays: sublane blocks of 32 rows, a whole axis of up to 32 rows.
  const std::vector<ir::ScalarType> int8 = {ir::ScalarType::kInt8};
  CHECK(legal_block(8, 256, BlockRole::kSublane, 1, {}, int8) == 32);
  CHECK(legal_block(100, 1000, BlockRole::kSublane, 1, {}, int8) == 96);
  CHECK(legal_block(8, 20, BlockRole::kSublane, 1, {}, int8) == 20);
  CHECK(legal_block(8, 256, BlockRole::kLane, 1, {}, int8) == 128);
  CHECK(legal_block(8, 256, BlockRole::kSublane, 1, {}, {ir::ScalarType::kBool}) == 8);
}

}  // namespace
}  // namespace helionc::passes
