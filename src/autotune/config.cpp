#include "autotune/config.h"

#include <fmt/core.h>

#include <algorithm>

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
         predicted == other.predicted && measured == other.measured && verified == other.verified;
}

bool ConfigFile::same_values(const ConfigFile& other) const {
  return schema_version == other.schema_version && kernel == other.kernel &&
         source_sha256 == other.source_sha256 && target == other.target &&
         helionc_version == other.helionc_version && model_version == other.model_version &&
         default_config == other.default_config && configs == other.configs;
}

void merge_config_file(ConfigFile& base, ConfigFile later) {
  if (later.default_config.range.valid()) base.default_config = std::move(later.default_config);
  for (ShapeEntry& entry : later.configs) {
    auto same = std::find_if(base.configs.begin(), base.configs.end(), [&](const ShapeEntry& e) {
      return e.shapes == entry.shapes && e.dtypes == entry.dtypes;
    });
    if (same != base.configs.end()) {
      *same = std::move(entry);
    } else {
      base.configs.push_back(std::move(entry));
    }
  }
  if (later.source_sha256) base.source_sha256 = std::move(later.source_sha256);
  if (later.target) base.target = std::move(later.target);
  if (later.helionc_version) base.helionc_version = std::move(later.helionc_version);
  if (later.model_version) base.model_version = later.model_version;
}

void check_config_provenance(const ConfigFile& config, std::string_view source_sha256,
                             std::string_view target, DiagnosticEngine& diags,
                             std::string_view helionc_version, int64_t model_version) {
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
  if (!helionc_version.empty() && config.helionc_version &&
      *config.helionc_version != helionc_version) {
    diags.warning(DiagnosticKind::kConfigMismatch, config.helionc_version_range,
                  fmt::format("config `{}` was tuned by helionc {}, this is {}; it is used "
                              "anyway, re-run `--autotune` to refresh it",
                              config.kernel, *config.helionc_version, helionc_version));
  }
  if (model_version != 0 && config.model_version && *config.model_version != model_version) {
    diags.warning(DiagnosticKind::kConfigMismatch, config.model_version_range,
                  fmt::format("config `{}` was predicted by cost model version {}, this helionc's "
                              "is {}: its `predicted:` figures are stale",
                              config.kernel, *config.model_version, model_version));
  }
}

}  // namespace helionc::autotune
