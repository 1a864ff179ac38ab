#include "autotune/config.h"

#include <fmt/core.h>

namespace helionc::autotune {

bool KernelConfig::operator==(const KernelConfig& other) const {
  return block_sizes == other.block_sizes && pallas_loop_type == other.pallas_loop_type &&
         pallas_loop_type_for_all == other.pallas_loop_type_for_all &&
         pallas_load_buffer_count == other.pallas_load_buffer_count &&
         loop_orders == other.loop_orders && vmem_limit_bytes == other.vmem_limit_bytes &&
         pallas_pre_broadcast == other.pallas_pre_broadcast && tunables == other.tunables;
}

bool ShapeEntry::operator==(const ShapeEntry& other) const {
  return shapes == other.shapes && dtypes == other.dtypes && config == other.config &&
         predicted == other.predicted;
}

bool ConfigFile::same_values(const ConfigFile& other) const {
  return schema_version == other.schema_version && kernel == other.kernel &&
         source_sha256 == other.source_sha256 && target == other.target &&
         default_config == other.default_config && configs == other.configs;
}

void check_config_provenance(const ConfigFile& config, std::string_view source_sha256,
                             std::string_view target, DiagnosticEngine& diags) {
  if (!source_sha256.empty() && config.source_sha256 && *config.source_sha256 != source_sha256) {
    diags.warning(DiagnosticKind::kConfigMismatch, config.source_sha256_range,
                  fmt::format("config `{}` was tuned for another version of the kernel source; "
                              "it is used anyway, re-run `--autotune` to refresh it",
                              config.kernel));
  }
  if (!target.empty() && config.target && *config.target != target) {
    diags.warning(DiagnosticKind::kConfigMismatch, config.target_range,
                  fmt::format("config `{}` was tuned for `{}`, not `{}`; it is used anyway",
                              config.kernel, *config.target, target));
  }
}

}  // namespace helionc::autotune
