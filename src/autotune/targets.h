// TPU generations as data: the figures of pallas-target.md §6 (VMEM and SMEM capacity, MXU
// shape, peak bf16 throughput, HBM bandwidth, cores) live in configs/targets/NAME.yaml, one
// file per `--target`, and nowhere else. The files are embedded into the binary at build time
// (cmake/EmbedTemplates.cmake), so an installed helionc needs no data files; the VMEM checks,
// `--emit report` and (later) the cost model read them through this header, and the tests
// read the same figures from here rather than writing them down again.
//
//   schema_version: 1
//   target: tpu-v7x
//   device_kind: "TPU7x"            # jax's device_kind
//   compile_topology: "tpu7x:2x2x1" # libtpu's topology name (--search compile)
//   vmem_bytes: 67108864            # per TensorCore
//   smem_bytes: 1048576
//   smem_reserved_bytes: 4096       # of it, kept by the compiler (not for a kernel's operands)
//   default_scoped_vmem_bytes: 33554432   # without vmem_limit_bytes
//   lane_move_scratch_bytes: 0      # moving a lane reduction's result into lanes (0: none)
//   mxu: {count: 2, rows: 256, cols: 256}
//   bf16_peak_tflops: 2307          # per chip
//   hbm_bandwidth_gb_s: 7380        # per chip
//   cores_per_chip: 2
//   megacore: false
//   grid_step_overhead_us: 0.27
//   # the cost model's figures (autotune/cost_model.h), each with its source in the file:
//   mxu_f32_rate: 1                 # f32 products, as a multiple of the bf16 rate
//   mxu_int8_rate: 1                # int8 products, likewise
//   mxu_sustained_fraction: 0.98    # of the peak, on large products
//   vpu_gelem_per_s: 18023          # vector ALU element operations per second, per core
//   eup_gelem_per_s: 9012           # transcendental elements per second, per core
//   launch_overhead_us: 115         # one pallas_call, dispatch and synchronisation
//   emit_pipeline_step_overhead_us: 0.27   # one iteration of pltpu.emit_pipeline
//   fori_loop_step_overhead_us: 0.27       # one iteration of a fori_loop with async copies
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.h"
#include "support/source.h"

namespace helionc::autotune {

struct TargetInfo {
  std::string name;              // "tpu-v7x" (the `--target` spelling)
  std::string device_kind;       // "TPU7x"
  std::string compile_topology;  // "tpu7x:2x2x1": what --search compile compiles for
  int64_t vmem_bytes = 0;        // per TensorCore
  int64_t smem_bytes = 0;
  int64_t smem_reserved_bytes = 0;        // SMEM the compiler keeps for itself beside the operands
  int64_t default_scoped_vmem_bytes = 0;  // what Mosaic allows without vmem_limit_bytes
  // The scoped VMEM the compiler takes to move a lane reduction's result into lanes
  // (passes/held_blocks.h, launch_lane_moves), once per kernel; 0 where it takes none.
  int64_t lane_move_scratch_bytes = 0;
  int mxu_count = 0;
  int mxu_rows = 0;
  int mxu_cols = 0;
  double bf16_peak_tflops = 0;    // per chip
  double hbm_bandwidth_gb_s = 0;  // per chip
  int cores_per_chip = 0;
  bool megacore = false;
  double grid_step_overhead_us = 0;
  // The cost model's figures (autotune/cost_model.h).
  double mxu_f32_rate = 0;            // f32 products: multiple of the bf16 rate
  double mxu_int8_rate = 0;           // int8 products: multiple of the bf16 rate
  double mxu_sustained_fraction = 0;  // of the peak, on products that fill the MXU's tiles
  double vpu_gelem_per_s = 0;         // per TensorCore
  double eup_gelem_per_s = 0;         // per TensorCore
  double launch_overhead_us = 0;
  double emit_pipeline_step_overhead_us = 0;
  double fori_loop_step_overhead_us = 0;
};

// Reads one target file; problems are reported at their file:line:col (kConfigSchema, or
// kConfigSyntax for YAML syntax) and give nullopt. Every key is required.
std::optional<TargetInfo> parse_target_text(std::shared_ptr<const SourceFile> file,
                                            DiagnosticEngine& diags);

// The built-in targets (configs/targets/*.yaml), in file-name order, which is the order of
// generations. A broken built-in file is a helionc bug (an internal error).
const std::vector<TargetInfo>& builtin_targets();

// The target used without --target: the newest generation, the last of builtin_targets().
const TargetInfo& default_target();

// The SMEM a kernel's operands may take: the target's SMEM less what the compiler keeps.
int64_t smem_capacity(const TargetInfo& target);

// The built-in target of that name, or null.
const TargetInfo* find_target(std::string_view name);

// "tpu-v4, tpu-v5e, ..." for messages.
std::string target_name_list();

}  // namespace helionc::autotune
