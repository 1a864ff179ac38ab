// --shapes / --shapes-file: the format and its usage errors (exit status 2).
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <variant>
#include <vector>

#include "driver/options.h"
#include "driver/shapes.h"

namespace helionc::driver {
namespace {

std::variant<DriverOptions, int> parse(std::vector<std::string> args) {
  args.insert(args.begin(), "helionc");
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

std::string error_of(std::string_view text) {
  auto parsed = parse_shapes(text, "--shapes");
  REQUIRE_FALSE(parsed);
  return parsed.error();
}

TEST_CASE("--shapes: calls, tensors, dimensions and dtypes") {
  auto parsed =
      parse_shapes(" x=4096x1024:bf16 , y=1024:float32; x=8x8:f16,y=8:half;s=:i32", "--shapes");
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 3);
  const ShapeSet& first = (*parsed)[0];
  REQUIRE(first.tensors.size() == 2);
  CHECK(first.tensors[0].name == "x");
  CHECK(first.tensors[0].dims == std::vector<int64_t>{4096, 1024});
  CHECK(first.tensors[0].dtype == ir::ScalarType::kBFloat16);
  CHECK(first.tensors[1].dims == std::vector<int64_t>{1024});
  CHECK(first.tensors[1].dtype == ir::ScalarType::kFloat32);
  CHECK((*parsed)[1].tensors[1].dtype == ir::ScalarType::kFloat16);
  CHECK((*parsed)[2].tensors[0].dims.empty());  // a 0-d tensor
  CHECK(format_shape_set(first) == "x=4096x1024:bf16,y=1024:f32");
}

TEST_CASE("--shapes: each mistake is named precisely") {
  CHECK(error_of("x4096:bf16") ==
        "--shapes: `x4096:bf16` has no `=`; write NAME=DIMS:DTYPE, e.g. `x=4096x4096:bf16`");
  CHECK(error_of("x=4096") ==
        "--shapes: `x=4096` has no dtype; write NAME=DIMS:DTYPE, e.g. `x=4096x4096:bf16`");
  CHECK(error_of("x=40a6x8:bf16") ==
        "--shapes: dimension `40a6` of `x` is not a positive integer (dimensions are joined by "
        "`x`, e.g. `4096x4096`)");
  CHECK(error_of("x=0x8:bf16").find("dimension `0` of `x`") != std::string::npos);
  CHECK(error_of("x=8x:bf16").find("dimension `` of `x`") != std::string::npos);
  CHECK(error_of("x=8:f64") == "--shapes: dtype `f64` of `x` is 64-bit; TPUs have no 64-bit types");
  CHECK(
      error_of("x=8:bf17") ==
      "--shapes: unknown dtype `bf17` for `x`; expected bf16, f16, f32, i8, u8, i16, i32 or bool");
  CHECK(error_of("x=8:f32,x=9:f32") == "--shapes: `x` is given twice in `x=8:f32,x=9:f32`");
  CHECK(error_of("1x=8:f32") == "--shapes: `1x` is not a parameter name (in `1x=8:f32`)");
  CHECK(error_of(" ; ") ==
        "--shapes: no shapes given; write NAME=DIMS:DTYPE, e.g. `x=4096x4096:bf16`");
  CHECK(error_of("x=8:f32; , ,") ==
        "--shapes: `, ,` names no tensors; write NAME=DIMS:DTYPE, e.g. `x=4096x4096:bf16`");
}

TEST_CASE("--shapes-file: lines, comments, errors with the line") {
  auto parsed = parse_shapes_file(
      "# matmul\nx=8x8:f32,y=8x8:f32  # small\n\nx=16x16:bf16,y=16x16:bf16\n", "m.shapes");
  REQUIRE(parsed);
  CHECK(parsed->size() == 2);
  auto bad = parse_shapes_file("x=8:f32\nx=8:f99\n", "m.shapes");
  REQUIRE_FALSE(bad);
  CHECK(bad.error().rfind("m.shapes:2: unknown dtype `f99`", 0) == 0);
}

TEST_CASE("the command line: --emit report, --shapes, and their usage errors") {
  auto parsed = parse({"k.py", "--emit", "report", "--shapes", "x=8x8:f32;x=16x16:f32"});
  REQUIRE(std::holds_alternative<DriverOptions>(parsed));
  const DriverOptions& options = std::get<DriverOptions>(parsed);
  CHECK(options.emit == EmitKind::kReport);
  CHECK(options.shapes.size() == 2);
  // A malformed --shapes, or --shapes without --emit report, is a usage error.
  CHECK(std::get<int>(parse({"k.py", "--emit", "report", "--shapes", "x=8:q"})) == kExitUsageError);
  CHECK(std::get<int>(parse({"k.py", "--shapes", "x=8:f32"})) == kExitUsageError);
  CHECK(std::get<int>(parse({"k.py", "--emit", "report", "--shapes-file", "/no/such/file"})) ==
        kExitUsageError);

  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "helionc_shapes_test.shapes";
  {
    std::ofstream out(file);
    out << "x=8x8:f32  # one call\n";
  }
  auto from_file =
      parse({"k.py", "--emit", "report", "--shapes", "x=4:f32", "--shapes-file", file.string()});
  std::filesystem::remove(file);
  REQUIRE(std::holds_alternative<DriverOptions>(from_file));
  CHECK(std::get<DriverOptions>(from_file).shapes.size() == 2);
}

TEST_CASE("--target accepts exactly the built-in targets") {
  CHECK(target_names() ==
        std::vector<std::string>{"tpu-v4", "tpu-v5e", "tpu-v5p", "tpu-v6e", "tpu-v7x"});
  for (const std::string& target : target_names()) {
    CHECK(std::holds_alternative<DriverOptions>(parse({"k.py", "--target", target})));
  }
}

}  // namespace
}  // namespace helionc::driver
