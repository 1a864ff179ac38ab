#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "driver/depfile.h"
#include "driver/options.h"
#include "driver/parse_args.h"

using helionc::driver::DepfileFlags;
using helionc::driver::DepfileRequest;
using helionc::driver::DriverOptions;
using helionc::driver::escape_for_make;
using helionc::driver::render_depfile;
using helionc::driver::take_gcc_dependency_flags;
using helionc::testing::parse_args;

namespace {

// By value: the parsed options are a temporary of the caller's expression.
DepfileRequest depfile_of(const std::variant<DriverOptions, int>& parsed) {
  REQUIRE(std::holds_alternative<DriverOptions>(parsed));
  const auto& options = std::get<DriverOptions>(parsed);
  REQUIRE(options.depfile.has_value());
  return *options.depfile;
}

}  // namespace

TEST_CASE("GCC's dependency flags are taken out of argv, joined or separate") {
  DepfileFlags flags;
  auto rest = take_gcc_dependency_flags(
      {"k.py", "-MD", "-MF", "out.d", "-MTa", "-MT", "b c", "-MP", "-o", "x.py"}, flags);
  REQUIRE(rest);
  CHECK(*rest == std::vector<std::string>{"k.py", "-o", "x.py"});
  CHECK(flags.beside_output);
  CHECK(flags.phony);
  CHECK(flags.path == "out.d");
  CHECK(flags.targets == std::vector<std::string>{"a", "b c"});

  DepfileFlags joined;
  REQUIRE(take_gcc_dependency_flags({"-MFdir/k.d"}, joined));
  CHECK(joined.path == "dir/k.d");

  DepfileFlags missing;
  auto error = take_gcc_dependency_flags({"k.py", "-MF"}, missing);
  REQUIRE_FALSE(error);
  CHECK(error.error() == "missing argument to '-MF'");
}

TEST_CASE("the command line resolves the depfile's path and target") {
  SECTION("-MD puts it beside the output") {
    const DepfileRequest request = depfile_of(parse_args({"-MD", "-o", "gen/k_pallas.py", "k.py"}));
    CHECK(request.path == "gen/k_pallas.d");
    CHECK(request.targets == std::vector<std::string>{"gen/k_pallas.py"});
    CHECK_FALSE(request.phony);
  }
  SECTION("-MD without -o: beside the default output") {
    CHECK(depfile_of(parse_args({"-MD", "src/k.py"})).path == "k_pallas.d");
  }
  SECTION("--depfile, -MT verbatim, -MP") {
    const DepfileRequest& request = depfile_of(
        parse_args({"--depfile", "k.d", "-MT", "$(OUT)", "-MP", "-o", "a b.py", "k.py"}));
    CHECK(request.path == "k.d");
    CHECK(request.targets == std::vector<std::string>{"$(OUT)"});
    CHECK(request.phony);
  }
  SECTION("the default target is the output, escaped") {
    CHECK(depfile_of(parse_args({"-MF", "k.d", "-o", "a b.py", "k.py"})).targets ==
          std::vector<std::string>{"a\\ b.py"});
  }
  SECTION("no depfile unless asked") {
    auto parsed = parse_args({"k.py"});
    REQUIRE(std::holds_alternative<DriverOptions>(parsed));
    CHECK_FALSE(std::get<DriverOptions>(parsed).depfile.has_value());
  }
}

TEST_CASE("depfile usage errors") {
  const int usage = helionc::driver::kExitUsageError;
  CHECK(std::get<int>(parse_args({"k.py", "-MF"})) == usage);
  CHECK(std::get<int>(parse_args({"-MD", "-o", "-", "k.py"})) == usage);  // no name for it
  CHECK(std::get<int>(parse_args({"-MF", "k.d", "--emit", "ir", "k.py"})) == usage);  // no target
  CHECK(std::get<int>(parse_args({"-MT", "x", "k.py"})) == usage);                    // -MT alone
  CHECK(std::get<int>(parse_args({"-MF", "a.d", "--depfile", "b.d", "k.py"})) == usage);
  // Standard output is fine once the target is named.
  CHECK(depfile_of(parse_args({"-MF", "k.d", "-MT", "k.ir", "--emit", "ir", "k.py"})).targets ==
        std::vector<std::string>{"k.ir"});
}

TEST_CASE("file names are escaped as GCC escapes them") {
  CHECK(escape_for_make("plain/k.py") == "plain/k.py");
  CHECK(escape_for_make("a b\tc") == "a\\ b\\\tc");
  CHECK(escape_for_make("cost$1#2:3") == "cost$$1\\#2\\:3");
  // Backslashes before a blank are doubled (2N+1 backslashes: N of them and the blank), others
  // are left alone.
  CHECK(escape_for_make("a\\ b") == "a\\\\\\ b");
  CHECK(escape_for_make("a\\b") == "a\\b");
}

TEST_CASE("the depfile names the source first, each input once, and phony rules for inputs") {
  DepfileRequest request{"k.d", {"out/k_pallas.py"}, false};
  CHECK(render_depfile(request, "k.py", {"k.yaml", "t dir/m.tmpl", "k.yaml"}) ==
        "out/k_pallas.py: k.py \\\n k.yaml \\\n t\\ dir/m.tmpl\n");
  request.phony = true;
  CHECK(render_depfile(request, "k.py", {"k.yaml"}) ==
        "out/k_pallas.py: k.py \\\n k.yaml\n\nk.yaml:\n");
  // Standard input: no source; the inputs still get their rules.
  CHECK(render_depfile(request, std::nullopt, {"k.yaml"}) ==
        "out/k_pallas.py: k.yaml\n\nk.yaml:\n");
  request.targets = {"a", "b"};
  CHECK(render_depfile(request, "k.py", {}) == "a b: k.py\n");
}
