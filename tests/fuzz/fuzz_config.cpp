// libFuzzer target: the YAML config reader (`--config`), on any text. Any crash, sanitizer
// report or internal error is a finding; a config that loads must survive being written back
// (write_config_yaml) and read again.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

#include "autotune/config.h"
#include "support/internal_check.h"

using namespace helionc;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  internal_error_handler = std::abort;
  auto file = std::make_shared<const SourceFile>(
      "fuzz.yaml", std::string(reinterpret_cast<const char*>(data), size));
  DiagnosticEngine diags;
  std::optional<autotune::ConfigFile> config = autotune::parse_config_text(file, diags);
  diags.render();
  if (!config) return 0;
  auto written =
      std::make_shared<const SourceFile>("written.yaml", autotune::write_config_yaml(*config));
  DiagnosticEngine again;
  if (!autotune::parse_config_text(written, again)) {
    std::fprintf(stderr, "a config that loaded does not load once written back:\n%s\n%s",
                 written->text().c_str(), again.render().c_str());
    std::abort();
  }
  return 0;
}
