// The VMEM formulas the module prints for its trace-time check (passes/vmem_formula.h, printed by
// backend/pallas/size_formula.h) against the accounting of `--emit report`
// (passes::account_launch): every sample, every launch and schedule, every call of the
// sample's .shapes file, several block sizes and buffer counts. The printed Python is run by the
// build's Python 3 with the call's leaf values bound to the leaves' names.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "backend/pallas/size_formula.h"
#include "passes/vmem_fallback.h"
#include "resources/compiled_kernel.h"

namespace helionc {
namespace {

namespace fs = std::filesystem;

struct Comparison {
  std::string what;      // sample, launch, schedule, call, choices
  std::string formula;   // the printed Python
  std::string bindings;  // `name=value` per leaf, space-separated
  int64_t accounted = 0;
};

std::string read_file(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

std::optional<ir::ScalarType> short_dtype(const std::string& name) {
  static const std::map<std::string, ir::ScalarType> kNames = {
      {"f32", ir::ScalarType::kFloat32},
      {"bf16", ir::ScalarType::kBFloat16},
      {"f16", ir::ScalarType::kFloat16},
      {"i32", ir::ScalarType::kInt32},
  };
  auto it = kNames.find(name);
  if (it == kNames.end()) return std::nullopt;
  return it->second;
}

// One line of a .shapes file: `x=8x4096:f32,bias=4096:f32`; scalar entries are left out.
std::map<std::string, passes::ConcreteTensor> parse_call(const std::string& line) {
  std::map<std::string, passes::ConcreteTensor> call;
  std::stringstream entries(line);
  std::string entry;
  while (std::getline(entries, entry, ',')) {
    const size_t eq = entry.find('=');
    const size_t colon = entry.find(':');
    if (eq == std::string::npos || colon == std::string::npos) continue;
    std::optional<ir::ScalarType> dtype = short_dtype(entry.substr(colon + 1));
    if (!dtype) continue;
    passes::ConcreteTensor tensor;
    tensor.dtype = *dtype;
    std::stringstream dims(entry.substr(eq + 1, colon - eq - 1));
    std::string dim;
    while (std::getline(dims, dim, 'x')) tensor.shape.push_back(std::stoll(dim));
    call[entry.substr(0, eq)] = tensor;
  }
  return call;
}

std::vector<std::map<std::string, passes::ConcreteTensor>> read_calls(const fs::path& path) {
  std::vector<std::map<std::string, passes::ConcreteTensor>> calls;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line.front() == '#') continue;
    calls.push_back(parse_call(line));
  }
  return calls;
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

// The v5 compilers' scratch for moving reductions' results into lanes (configs/targets), so
// that the formula's conditions on it are checked too.
constexpr int64_t kLaneMoveScratch = 36864;

// The block sizes and buffer counts tried per call: the defaults, small, large.
std::vector<passes::LaunchChoices> choice_sets(const ir::Kernel& kernel,
                                               const passes::LaunchSchedule& schedule) {
  std::vector<passes::LaunchChoices> sets;
  const std::vector<std::optional<int64_t>> picks[] = {{std::nullopt}, {8, 128}, {512, 64, 256}};
  const int64_t buffers[] = {2, 1, 3};
  for (size_t s = 0; s < std::size(picks); ++s) {
    passes::LaunchChoices choices;
    choices.lane_move_scratch_bytes = kLaneMoveScratch;
    for (int t = 0; t < kernel.num_tunable_blocks; ++t) {
      choices.block_sizes.push_back(picks[s][static_cast<size_t>(t) % picks[s].size()]);
    }
    choices.strategies = schedule.strategies;
    choices.buffer_counts.assign(schedule.strategies.size(), buffers[s]);
    sets.push_back(std::move(choices));
  }
  return sets;
}

class Bindings {
 public:
  Bindings(const ir::Kernel& kernel, const passes::HostValues& values,
           const passes::LaunchResources& resources, const passes::LaunchChoices& choices)
      : kernel_(kernel), values_(values), resources_(resources), choices_(choices) {}

  // The leaf's name in the printed formula, its value recorded for the Python side.
  backend::pallas::PyExpr name(const passes::SizeExpr& leaf) {
    using Kind = passes::SizeExpr::Kind;
    std::string name;
    int64_t value = 0;
    switch (leaf.kind) {
      case Kind::kBlock:
        name = fmt::format("block_{}", leaf.index);
        value = resources_.blocks.at(static_cast<size_t>(leaf.index));
        break;
      case Kind::kAxisSize:
        name = fmt::format("size_{}_{}", leaf.binding, leaf.axis);
        value = *values_.axis_size(leaf.binding, leaf.axis);
        break;
      case Kind::kItemSize:
        name = fmt::format("itemsize_{}", leaf.binding);
        value = passes::vmem_item_bytes(*values_.dtype(leaf.binding));
        break;
      case Kind::kExtent:
        name = fmt::format("extent_{}", leaf.index);
        value = resources_.extents.at(static_cast<size_t>(leaf.index));
        break;
      case Kind::kBuffers:
        name = fmt::format("buffers_{}", leaf.index);
        value = choices_.buffer_counts.at(static_cast<size_t>(leaf.index));
        break;
      case Kind::kComputed:
        name = fmt::format("computed_{}", leaf.index);
        value =
            *values_.int_value(kernel_.computed_sizes.at(static_cast<size_t>(leaf.index)).value);
        break;
      default:
        FAIL("not a leaf");
    }
    bound_[name] = value;
    return backend::pallas::py_atom(name);
  }

  std::string text() const {
    std::vector<std::string> items;
    for (const auto& [name, value] : bound_) items.push_back(fmt::format("{}={}", name, value));
    return fmt::format("{}", fmt::join(items, " "));
  }

 private:
  const ir::Kernel& kernel_;
  const passes::HostValues& values_;
  const passes::LaunchResources& resources_;
  const passes::LaunchChoices& choices_;
  std::map<std::string, int64_t> bound_;
};

void compare_sample(const fs::path& source, std::vector<Comparison>& comparisons,
                    size_t& schedules_seen) {
  const std::string text = read_file(source);
  const Compiled compiled = compile(text.c_str());
  const ir::Kernel& kernel = compiled.kernel();
  fs::path shapes = source;
  shapes.replace_extension(".shapes");
  for (const auto& call : read_calls(shapes)) {
    std::map<int, passes::ConcreteTensor> args;
    for (const ir::Param& param : kernel.params) {
      const ir::Binding& binding = kernel.bindings[param.binding];
      if (binding.type.kind != ir::TypeKind::kTensor) continue;
      auto it = call.find(binding.name);
      if (it != call.end()) args[param.binding] = it->second;
    }
    const passes::HostValues values(kernel, std::move(args));
    for (const passes::Launch& launch : compiled.result->plans.front().launches) {
      for (const passes::LaunchSchedule& schedule : launch.schedules) {
        ++schedules_seen;
        Expected<passes::SizeExpr> formula =
            passes::launch_vmem(kernel, launch, schedule, kLaneMoveScratch);
        for (const passes::LaunchChoices& choices : choice_sets(kernel, schedule)) {
          Expected<passes::LaunchResources> resources =
              passes::account_launch(kernel, launch, schedule, values, choices);
          if (!resources) continue;  // a size the host computes from a scalar, ...
          INFO(source.filename().string());
          REQUIRE(formula);
          int64_t operands = resources->narrow_value_bytes + resources->sort_bytes +
                             resources->one_hot_bytes + resources->reduction_bytes +
                             resources->product_bytes + resources->random_bytes +
                             resources->lane_move_bytes + resources->hoisted_bytes;
          for (const passes::OperandResources& r : resources->operands) operands += r.vmem_bytes;
          CHECK(operands == resources->vmem_bytes);
          Bindings bindings(kernel, values, *resources, choices);
          const std::string printed =
              backend::pallas::print_size(*formula, [&](const passes::SizeExpr& leaf) {
                return bindings.name(leaf);
              }).text;
          std::vector<std::string> strategies;
          for (passes::LoopStrategy s : schedule.strategies) {
            strategies.emplace_back(passes::loop_strategy_name(s));
          }
          comparisons.push_back(
              {fmt::format("{} launch {} [{}] blocks {}", source.filename().string(), launch.index,
                           fmt::join(strategies, ","), fmt::join(resources->blocks, "/")),
               printed, bindings.text(), resources->vmem_bytes});
        }
      }
    }
  }
}

TEST_CASE("the printed VMEM formulas agree with the accounting on every sample's calls") {
  const fs::path samples = fs::path(HELIONC_SOURCE_DIR) / "samples";
  std::vector<fs::path> sources;
  for (const auto& entry : fs::directory_iterator(samples)) {
    fs::path shapes = entry.path();
    shapes.replace_extension(".shapes");
    if (entry.path().extension() == ".py" && fs::exists(shapes)) sources.push_back(entry.path());
  }
  std::sort(sources.begin(), sources.end());
  REQUIRE(sources.size() > 40);
  std::vector<Comparison> comparisons;
  size_t schedules_seen = 0;
  for (const fs::path& source : sources) compare_sample(source, comparisons, schedules_seen);

  const fs::path dir = fs::temp_directory_path();
  const fs::path input = dir / fmt::format("helionc_vmem_formula_{}.txt", getpid());
  const fs::path script = dir / fmt::format("helionc_vmem_formula_{}.py", getpid());
  {
    std::ofstream out(input);
    for (const Comparison& c : comparisons) out << c.bindings << '\t' << c.formula << '\n';
    std::ofstream py(script);
    // The module's own `_vmem_bytes` (its template), so that its rule is checked too.
    py << "import sys\n"
       << read_file(fs::path(HELIONC_SOURCE_DIR) / "templates" / "helper_vmem_bytes.py.tmpl")
       << "class pl:\n"
          "    @staticmethod\n"
          "    def cdiv(a, b):\n"
          "        return -(-a // b)\n"
          "for line in open(sys.argv[1]):\n"
          "    bindings, formula = line.rstrip('\\n').split('\\t')\n"
          "    env = {k: int(v) for k, v in (b.split('=') for b in bindings.split())}\n"
          "    print(eval(formula, {'pl': pl, 'min': min, '_vmem_bytes': _vmem_bytes,\n"
          "                         '__builtins__': {}}, env))\n";
  }
  const std::string output =
      run(fmt::format("'{}' '{}' '{}'", HELIONC_PYTHON, script.string(), input.string()));
  fs::remove(input);
  fs::remove(script);
  std::istringstream lines(output);
  size_t unrolled = 0;
  for (const Comparison& c : comparisons) {
    std::string line;
    REQUIRE(std::getline(lines, line));
    INFO(c.what << "\n  " << c.formula << "\n  " << c.bindings);
    CHECK(line == std::to_string(c.accounted));
    if (c.formula.find("pl.cdiv") != std::string::npos) ++unrolled;
  }
  // Many calls, and `unroll`'s resident axes among them.
  CHECK(comparisons.size() > 1000);
  CHECK(unrolled > 200);
  CHECK(schedules_seen > 100);
}

TEST_CASE("the VMEM fallback runs unroll loops as emit_pipeline and leaves the others") {
  const Compiled sum = compile(R"(@helion.kernel()
def long_sum(x: torch.Tensor) -> torch.Tensor:
    m, n = x.size()
    out = torch.empty([m], dtype=x.dtype, device=x.device)
    for tile_m in hl.tile(m):
        acc = hl.zeros([tile_m], dtype=torch.float32)
        for tile_n in hl.tile(n):
            acc += x[tile_m, tile_n].to(torch.float32).sum(-1)
        out[tile_m] = acc
    return out
)");
  using passes::LoopStrategy;
  const passes::Launch& launch = sum.launch();
  REQUIRE(launch.inner_loops.size() == 1);
  CHECK(passes::vmem_fallback(launch, {LoopStrategy::kUnroll}) ==
        std::vector<LoopStrategy>{LoopStrategy::kEmitPipeline});
  for (LoopStrategy other :
       {LoopStrategy::kGrid, LoopStrategy::kEmitPipeline, LoopStrategy::kForiLoop}) {
    CHECK_FALSE(passes::vmem_fallback(launch, {other}).has_value());
  }
  // With emit_pipeline ruled out, fori_loop is next.
  passes::Launch without = launch;
  without.inner_loops[0].not_applicable[static_cast<size_t>(LoopStrategy::kEmitPipeline)] = "test";
  CHECK(passes::vmem_fallback(without, {LoopStrategy::kUnroll}) ==
        std::vector<LoopStrategy>{LoopStrategy::kForiLoop});
  without.inner_loops[0].not_applicable[static_cast<size_t>(LoopStrategy::kForiLoop)] = "test";
  CHECK_FALSE(passes::vmem_fallback(without, {LoopStrategy::kUnroll}).has_value());
}

}  // namespace
}  // namespace helionc
