#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <cstdlib>
#include <functional>

#include "autotune/yaml_writer.h"

using namespace helionc::autotune;
namespace yw = helionc::autotune::yaml_write;

TEST_CASE("floats are rounded to four significant digits and stay floats", "[yaml]") {
  CHECK(yw::rounded_float(144.99133956211023) == "145.0");
  CHECK(yw::rounded_float(3.0) == "3.0");
  CHECK(yw::rounded_float(0.0) == "0.0");
  CHECK(yw::rounded_float(-2.718281828) == "-2.718");
  CHECK(yw::rounded_float(0.0012345678) == "0.001235");
  CHECK(yw::rounded_float(123456.0) == "123500.0");
  CHECK(yw::rounded_float(812.04) == "812.0");
  // An exponent always has a `.` before it: YAML 1.1 readers take `1e-07` for a string.
  CHECK(yw::rounded_float(1.2345678e-7) == "1.235e-07");
  CHECK(yw::rounded_float(1e-7) == "1.0e-07");
  CHECK(yw::rounded_float(1e20) == "1.0e+20");
}

TEST_CASE("rounding a rounded float changes nothing", "[yaml]") {
  for (double value : {144.99133956211023, 0.1 + 0.2, 96.25, 1e-9 / 3, 98765.4321, 7.0 / 3}) {
    const std::string once = yw::rounded_float(value);
    INFO(value << " -> " << once);
    CHECK(yw::rounded_float(std::strtod(once.c_str(), nullptr)) == once);
  }
}

namespace {
std::string emitted(const std::function<void(YAML::Emitter&)>& write) {
  YAML::Emitter out;
  yw::setup(out);
  write(out);
  return yw::document(out);
}
}  // namespace

TEST_CASE("keys are plain unless a YAML reader could take them for something else", "[yaml]") {
  const std::string text = emitted([](YAML::Emitter& out) {
    out << YAML::Flow << YAML::BeginMap;
    for (const char* name : {"x", "tile_m", "x-mode", "yes", "On", "1x", "a b", "~"}) {
      yw::key(out, name);
      out << 1;
    }
    out << YAML::EndMap;
  });
  CHECK(text ==
        "{x: 1, tile_m: 1, x-mode: 1, \"yes\": 1, \"On\": 1, \"1x\": 1, \"a b\": 1, "
        "\"~\": 1}\n");
}

TEST_CASE("strings are double-quoted, with escapes every reader reads back", "[yaml]") {
  const std::string value = "yes: \"a\" # b\n\té \xe2\x80\xa8";
  const std::string text = emitted([&](YAML::Emitter& out) {
    out << YAML::BeginMap;
    yw::key(out, "s");
    yw::string(out, value);
    out << YAML::EndMap;
  });
  CHECK(text == "s: \"yes: \\\"a\\\" # b\\n\\t\\xe9 \\u2028\"\n");
  CHECK(YAML::Load(text)["s"].as<std::string>() == value);
}

TEST_CASE("a config is a flow map in KernelConfig's order, tunables last", "[yaml]") {
  KernelConfig config;
  config.block_sizes = {8, 1024};
  config.pallas_loop_type = {"grid"};
  config.loop_orders = {{1, 0}};
  config.pallas_pre_broadcast = true;
  config.tunables = {{"chunk", {"64", false}}, {"x-note", {"a, b", true}}};
  CHECK(emitted([&](YAML::Emitter& out) { yw::config(out, config); }) ==
        "{block_sizes: [8, 1024], pallas_loop_type: [\"grid\"], loop_orders: [[1, 0]], "
        "pallas_pre_broadcast: true, chunk: 64, x-note: \"a, b\"}\n");
  CHECK(emitted([](YAML::Emitter& out) { yw::config(out, KernelConfig{}); }) == "{}\n");
}

TEST_CASE("a comment is one line of visible text per line of its text", "[yaml]") {
  const std::string text = emitted([](YAML::Emitter& out) {
    out << YAML::BeginMap;
    yw::key(out, "a");
    out << 1;
    yw::comment(out, "first\rstill first\nsecond");
    out << YAML::EndMap;
  });
  CHECK(text == "a: 1  # first\\rstill first\n      # second\n");
  CHECK(YAML::Load(text)["a"].as<int>() == 1);
}
