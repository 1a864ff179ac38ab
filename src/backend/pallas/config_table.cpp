#include "backend/pallas/config_table.h"

#include <fmt/format.h>

#include "autotune/resolve_config.h"
#include "backend/pallas/emit_context.h"
#include "backend/pallas/py_expr.h"

namespace helionc::backend::pallas {

namespace {

struct TensorParam {
  std::string name;
  int rank = -1;
  bool optional = false;  // `torch.Tensor | None`
};

class ConfigTables {
 public:
  ConfigTables(const ir::Kernel& kernel, const autotune::ConfigFile* config,
               KernelLoopTypes& loop_types, DiagnosticEngine& diags)
      : kernel_(kernel), config_(config), loop_types_(loop_types), diags_(diags) {
    for (const ir::Param& param : kernel.params) {
      const ir::Binding& binding = kernel.bindings[param.binding];
      if (binding.type.kind == ir::TypeKind::kTensor) {
        tensors_.push_back(
            {ir::call_name(kernel, param), binding.type.rank, binding.type.optional});
      }
    }
  }

  bool print(PythonWriter& out) {
    std::vector<std::string> entries;
    const std::string default_config = config_text(autotune::default_config(kernel_, config_));
    if (config_) {
      for (const autotune::ShapeEntry& entry : config_->configs) {
        if (auto key = entry_key(entry)) {
          entries.push_back(fmt::format("{}: {},", *key, config_text(entry.config)));
        }
      }
    }
    if (!ok_) return false;
    if (entries.empty()) {
      // No tuned entries: the public function uses the default without a lookup.
      out.comment(fmt::format("The config of {} (no tuned entries).", kernel_.name));
    } else {
      std::vector<std::string> names;
      for (const TensorParam& tensor : tensors_) names.push_back(tensor.name);
      out.comment(
          fmt::format("Tuned configs of {} by the shapes and dtypes of ({}); other calls use "
                      "the default.",
                      kernel_.name, fmt::join(names, ", ")));
      {
        auto table = out.block(fmt::format("{} = {{", config_table_name(kernel_)));
        for (const std::string& entry : entries) out.line(entry);
      }
      out.line("}");
    }
    out.line(fmt::format("{} = {}", config_default_name(kernel_), default_config));
    return ok_;
  }

 private:
  // The config as the module's Python dict; checked against the kernel (and its strategies
  // resolved) by autotune::resolve_config.
  std::string config_text(const autotune::KernelConfig& config) {
    std::string text = fmt::format("{{\"block_sizes\": {}", block_sizes(config.block_sizes));
    const std::optional<autotune::ResolvedConfig> resolved = loop_types_.resolve(config, diags_);
    if (!resolved) {
      ok_ = false;
    } else if (loop_types_.loop_count() > 0) {
      text += fmt::format(", \"pallas_loop_type\": {}",
                          KernelLoopTypes::python_tuple(resolved->strategies));
    }
    if (resolved && !resolved->buffer_counts.empty()) {
      // One entry per inner loop of the kernel (helionc's form, whichever the config gave); the
      // prelude's `_load_buffers` reads it.
      std::vector<std::string> counts;
      for (int64_t count : resolved->buffer_counts) counts.push_back(std::to_string(count));
      text += fmt::format(", \"pallas_load_buffer_count\": {}", py_tuple(counts));
    }
    if (!config.loop_orders.empty()) {
      // One permutation per multi-dimensional top-level tile loop (prelude `_loop_order`).
      std::vector<std::string> orders;
      for (const std::vector<int64_t>& order : config.loop_orders) {
        std::vector<std::string> dims;
        for (int64_t dim : order) dims.push_back(std::to_string(dim));
        orders.push_back(py_tuple(dims));
      }
      text += fmt::format(", \"loop_orders\": {}", py_tuple(orders));
      loop_types_.loop_orders_given = true;
    }
    for (const ir::UserTunable& tunable : kernel_.user_tunables) {
      // Checked against the fragment by autotune::resolve_config.
      const int64_t value = autotune::user_tunable_value(config, tunable);
      text += fmt::format(", {}: {}", py_string(tunable.name),
                          tunable.kind == ir::UserTunable::Kind::kBoolean
                              ? (value != 0 ? "True" : "False")
                              : std::to_string(value));
    }
    if (config.vmem_limit_bytes) {
      // Passed to every launch's pltpu.CompilerParams (checked against the target's VMEM by
      // autotune::check_vmem_limit when the config is loaded).
      text += fmt::format(", \"vmem_limit_bytes\": {}", *config.vmem_limit_bytes);
    }
    return text + "}";
  }

  // `(64, 512)`, padded with None to one entry per tunable block size (the module's default
  // block), or with the block a store fixes (ir::TileDim::stored_block: the only one the
  // kernel's meaning holds for).
  std::string block_sizes(const std::vector<int64_t>& sizes) const {
    std::vector<std::string> items;
    items.reserve(sizes.size());
    for (int64_t size : sizes) items.push_back(std::to_string(size));
    while (items.size() < static_cast<size_t>(kernel_.num_tunable_blocks)) {
      const int tunable = static_cast<int>(items.size());
      std::string item = "None";
      for (const ir::TileDim& dim : kernel_.tile_dims) {
        if (dim.block.kind == ir::BlockSource::Kind::kTunable && dim.block.tunable == tunable &&
            dim.stored_block > 0) {
          item = std::to_string(dim.stored_block);
        }
      }
      items.push_back(std::move(item));
    }
    return py_tuple(items);
  }

  // The entry's key in the module's table (its shapes and dtypes were checked against the
  // kernel by autotune::check_configs).
  std::optional<std::string> entry_key(const autotune::ShapeEntry& entry) const {
    std::vector<std::string> shapes;
    std::vector<std::string> dtypes;
    for (const TensorParam& tensor : tensors_) {
      auto shape = entry.shapes.find(tensor.name);
      if (shape == entry.shapes.end()) {
        // An optional argument left out of the call.
        shapes.emplace_back("None");
        if (!entry.dtypes.empty()) dtypes.emplace_back("None");
        continue;
      }
      std::vector<std::string> dims;
      for (int64_t dim : shape->second) dims.push_back(std::to_string(dim));
      shapes.push_back(py_tuple(dims));
      if (auto dtype = entry.dtypes.find(tensor.name); dtype != entry.dtypes.end()) {
        dtypes.push_back(py_string(dtype->second));
      }
    }
    return py_tuple({py_tuple(shapes), dtypes.empty() ? "None" : py_tuple(dtypes)});
  }

  const ir::Kernel& kernel_;
  const autotune::ConfigFile* config_;
  KernelLoopTypes& loop_types_;
  DiagnosticEngine& diags_;
  std::vector<TensorParam> tensors_;
  bool ok_ = true;
};

}  // namespace

bool print_config_tables(PythonWriter& out, const ir::Kernel& kernel,
                         const autotune::ConfigFile* config, KernelLoopTypes& loop_types,
                         DiagnosticEngine& diags) {
  return ConfigTables(kernel, config, loop_types, diags).print(out);
}

std::string describe_config(const autotune::ConfigFile* config, const ir::Kernel& kernel) {
  if (config == nullptr) {
    return kernel.builtin_configs.empty() ? "built-in defaults" : "the decorator's config";
  }
  std::vector<std::string> parts;
  if (config->default_config.range.valid()) parts.emplace_back("default");
  if (!config->configs.empty()) {
    parts.push_back(fmt::format("{} shape entr{}", config->configs.size(),
                                config->configs.size() == 1 ? "y" : "ies"));
  }
  std::string origin = config->file ? config->file->path() : "a config";
  if (parts.empty()) return origin;
  return fmt::format("{} ({})", origin, fmt::join(parts, ", "));
}

}  // namespace helionc::backend::pallas
