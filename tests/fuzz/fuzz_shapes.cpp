// libFuzzer target: the `--shapes` and `--shapes-file` parsers, on any text. Any crash or
// sanitizer report is a finding; every call that parses must parse again, to the same shapes,
// from format_shape_set's text.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "driver/shapes.h"

using namespace helionc::driver;

namespace {

void check_round_trip(const std::vector<ShapeSet>& sets) {
  for (const ShapeSet& set : sets) {
    const std::string text = format_shape_set(set);
    auto again = parse_shapes(text, "--shapes");
    const bool same =
        again && again->size() == 1 && (*again)[0].tensors.size() == set.tensors.size();
    bool equal = same;
    for (size_t i = 0; equal && i < set.tensors.size(); ++i) {
      const TensorShape& a = set.tensors[i];
      const TensorShape& b = (*again)[0].tensors[i];
      equal = a.name == b.name && a.dims == b.dims && a.dtype == b.dtype;
    }
    if (!equal) {
      std::fprintf(stderr, "`%s` does not parse back to the same shapes\n", text.c_str());
      std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  if (auto sets = parse_shapes(text, "--shapes")) check_round_trip(*sets);
  if (auto sets = parse_shapes_file(text, "fuzz.shapes")) check_round_trip(*sets);
  return 0;
}
