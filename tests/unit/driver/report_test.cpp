// `--emit report` through run_compile: a --shapes call that fits no kernel is a usage error.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "driver/compile.h"
#include "driver/options.h"

namespace helionc::driver {
namespace {

TEST_CASE("--emit report: --shapes calls must be calls of a kernel") {
  const std::filesystem::path dir = std::filesystem::temp_directory_path();
  const std::filesystem::path kernel = dir / "helionc_report_test.py";
  const std::filesystem::path report = dir / "helionc_report_test.txt";
  {
    std::ofstream out(kernel);
    out << "import torch\nimport helion\nimport helion.language as hl\n\n"
           "@helion.kernel()\n"
           "def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:\n"
           "    m, n = x.size()\n"
           "    out = torch.empty_like(x)\n"
           "    for tile_m, tile_n in hl.tile([m, n]):\n"
           "        out[tile_m, tile_n] = x[tile_m, tile_n] + y[tile_m, tile_n]\n"
           "    return out\n";
  }
  DriverOptions options;
  options.input = kernel.string();
  options.output = report.string();
  options.emit = EmitKind::kReport;
  options.color = ColorMode::kNever;
  options.shapes = parse_shapes("x=64x256:f32,y=64x256:f32", "--shapes").value();
  CHECK(run_compile(options) == kExitSuccess);
  std::ifstream written(report);
  const std::string text((std::istreambuf_iterator<char>(written)), {});
  CHECK(text.find("grid (tile_m 1, tile_n 1) = 1 step") != std::string::npos);
  // One grid step: each block never changes, so the compiler gives it one buffer.
  CHECK(text.find("VMEM 196,608 B (192 KiB) of 64 MiB (tpu-v7x VMEM): fits") != std::string::npos);

  for (const char* bad : {"x=64x256:f32,z=64x256:f32", "x=64:f32,y=64x256:f32", "x=64x256:f32"}) {
    INFO(bad);
    options.shapes = parse_shapes(bad, "--shapes").value();
    CHECK(run_compile(options) == kExitUsageError);
  }
  std::filesystem::remove(kernel);
  std::filesystem::remove(report);
}

}  // namespace
}  // namespace helionc::driver
