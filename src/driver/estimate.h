// `--estimate`: the cost model's prediction (autotune/cost_model.h) per kernel, config, call
// and launch, as YAML on standard output. The configs and calls are those of `--emit report`:
// the default config for every `--shapes` call of the kernel, and every entry of its
// `--config` file for the entry's own shapes.
//
//   target: "tpu-v5e"
//   model_version: 1
//   kernels:
//     - kernel: "matmul"
//       configs:
//         - label: "default (mm.yaml:3)"
//           config: {block_sizes: [512, 1024, 1024], pallas_loop_type: ["grid"]}
//           calls:
//             - shapes: "x=4096x4096:bf16,y=4096x4096:bf16"
//               time_us: 866.706
//               launches:
//                 - launch: 0
//                   time_us: 866.706
//                   tflops: 158.578
//                   fraction_of_peak: 0.8050
//                   bound: "MXU"
//                   fits: true
//                   ... hbm_bytes, vmem_bytes, flops, mxu_flops, cores, core_steps
//                   terms: {launch_overhead_us: 115.000, ...}
//                   units: {mxu_us: 711.898, vpu_us: 5.451, eup_us: 0.000, hbm_us: 531.961}
//
// A launch the accounting cannot compute has `error:` with the reason instead of figures (and
// the call's time is null); one that does not run for the call (an optional tensor it reads is
// None) has `runs: false`.
#pragma once

#include <string>

#include "driver/report.h"
#include "support/diagnostics.h"
#include "support/expected.h"

namespace helionc::driver {

// Like report_resources: config problems go to `diags`; a `--shapes` call that is no call of
// any kernel is returned as an Error (a usage error).
Expected<std::string> estimate_launches(const ReportInput& input, DiagnosticEngine& diags);

}  // namespace helionc::driver
