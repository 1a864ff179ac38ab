// libFuzzer target: source text through parse -> frontend -> passes -> backend, as
// `helionc kernel.py -o module.py` runs them. Any crash, sanitizer report or internal error is
// a finding, and so is a raw ESC, CR or NUL in the rendered diagnostics. When the compile
// succeeds, the module must pass check_module_structure; with HELIONC_FUZZ_MODULE_DIR set,
// each such module is also written there for CPython to compile (check_modules.py, the second
// stage of the test run).
#include <fmt/format.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <string_view>

#include "backend/pallas/emit_module.h"
#include "backend/reference/reference_module.h"
#include "frontend/frontend.h"
#include "frontend/source_checks.h"
#include "module_check.h"
#include "parse/syntax_tree.h"
#include "passes/pipeline.h"
#include "support/internal_check.h"
#include "support/sha256.h"

namespace {

using namespace helionc;

// A kInternal diagnostic is a bug even when it does not crash.
void fail_on_internal(const DiagnosticEngine& diags) {
  for (const Diagnostic& d : diags.diagnostics()) {
    if (d.kind == DiagnosticKind::kInternal) {
      std::fprintf(stderr, "internal diagnostic: %s\n", d.message.c_str());
      std::abort();
    }
  }
}

std::optional<std::string> compile(const SourceFile& file, DiagnosticEngine& diags) {
  if (!frontend::check_source_bytes(file, diags)) return std::nullopt;
  auto tree = parse::SyntaxTree::parse(file);
  if (!tree || !parse::report_syntax_errors(*tree, diags)) return std::nullopt;
  ir::Module module = frontend::lower_file(*tree, {}, diags);
  if (diags.has_errors()) return std::nullopt;
  auto scheduled = passes::run_pipeline(std::move(module), {}, diags);
  if (!scheduled || diags.has_errors()) return std::nullopt;
  backend::reference::ReferenceOptions reference_options;
  reference_options.helionc_version = "fuzz";
  reference_options.source_path = file.path();
  auto references =
      backend::reference::reference_section(scheduled->module, reference_options, diags);
  if (!references || diags.has_errors()) return std::nullopt;
  backend::pallas::EmitOptions options;
  options.references = std::move(references->text);
  options.references_math = references->math;
  options.helionc_version = "fuzz";
  options.source_path = file.path();
  options.source_sha256 = sha256_hex(file.text());
  auto emitted = backend::pallas::emit_module(scheduled->module, scheduled->plans, options, diags);
  if (diags.has_errors()) return std::nullopt;
  return emitted;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  internal_error_handler = std::abort;
  const SourceFile file("fuzz.py", std::string(reinterpret_cast<const char*>(data), size));
  DiagnosticEngine diags{DiagnosticOptions{}};
  const std::optional<std::string> module = compile(file, diags);
  // Rendering quotes source lines and names: nothing in them may reach the terminal raw.
  const std::string rendered = diags.render();
  if (rendered.find_first_of(std::string_view("\x1b\r\0", 3)) != std::string::npos) {
    std::fprintf(stderr, "a control character reached the rendered diagnostics:\n%s\n",
                 rendered.c_str());
    std::abort();
  }
  fail_on_internal(diags);
  if (!module) return 0;
  if (const std::string problem = fuzz::check_module_structure(*module); !problem.empty()) {
    std::fprintf(stderr, "a compiled module fails the structural check: %s\n%s\n", problem.c_str(),
                 module->c_str());
    std::abort();
  }
  if (const char* dir = std::getenv("HELIONC_FUZZ_MODULE_DIR")) {
    std::ofstream(fmt::format("{}/{}.py", dir, sha256_hex(file.text()).substr(0, 16))) << *module;
  }
  return 0;
}
