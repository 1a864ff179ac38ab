// Part of pass 2: whether the bounded slices a launch stores into one array (`dst[tile, :16]`,
// `dst[tile, 16:]`) cover the blocks they write, which are whole along the sliced axis.
#pragma once

#include <optional>
#include <vector>

#include "ir/nodes.h"

namespace helionc::passes {

// Where the stores may leave part of a block unwritten: the first slice of the first store
// that slices, and the array axis it slices.
struct SliceGap {
  SourceRange range;
  int axis = -1;
};

// A store of the array; `conditional` when it may not run (under an `if`).
struct SliceStore {
  const ir::Index* index = nullptr;
  bool conditional = false;
};

// The stores of one array in one launch (same index pattern: slices aside, equal entries).
// Covered when no store slices, when a store that always runs writes whole axes, or when every
// store slices one and the same axis and the bounds of those that always run chain from its
// start to its end (`:8`, `8:16`, `16:`; bounds compared as written, so `:n` and `n:` chain and
// `:3` and `-5:` do not). Nullopt when covered.
std::optional<SliceGap> uncovered_slice(const ir::Kernel& kernel,
                                        const std::vector<SliceStore>& stores);

}  // namespace helionc::passes
