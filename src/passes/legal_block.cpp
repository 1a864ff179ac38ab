#include "passes/legal_block.h"

#include <algorithm>

namespace helionc::passes {

namespace {

// `_DEFAULT_BLOCKS`, `_BLOCK_MULTIPLES` and `_BLOCK_ELEMENTS` of the prelude.
struct RoleFacts {
  int64_t default_block;
  int64_t multiple;
};

RoleFacts facts(BlockRole role) {
  switch (role) {
    case BlockRole::kLeading:
      return {1, 1};
    case BlockRole::kSublane:
      return {256, 8};
    case BlockRole::kLane:
      return {512, 128};
    case BlockRole::kFlat:
      return {8192, 128};
  }
  return {1, 1};
}

constexpr int64_t kBlockElements = int64_t{512} * 256;

}  // namespace

std::string_view block_role_name(BlockRole role) {
  switch (role) {
    case BlockRole::kLeading:
      return "leading";
    case BlockRole::kSublane:
      return "sublane";
    case BlockRole::kLane:
      return "lane";
    case BlockRole::kFlat:
      return "flat";
  }
  return "leading";
}

BlockRole block_role(const GridDim& grid) {
  if (grid.flat) return BlockRole::kFlat;
  switch (grid.role) {
    case AxisRole::kLeading:
      return BlockRole::kLeading;
    case AxisRole::kSublane:
      return BlockRole::kSublane;
    case AxisRole::kLane:
      return BlockRole::kLane;
  }
  return BlockRole::kLeading;
}

int64_t default_block(int64_t size, BlockRole role, int64_t other) {
  // Python's `//` floors; `other` is positive here, so C++'s division agrees.
  return std::min({facts(role).default_block, std::max<int64_t>(1, kBlockElements / other), size});
}

int64_t legal_block(std::optional<int64_t> requested, int64_t size, BlockRole role, int64_t other) {
  const int64_t wanted = requested ? *requested : default_block(size, role, other);
  const int64_t multiple = facts(role).multiple;
  if (wanted >= size || size <= multiple) return size;
  return std::max(multiple, wanted / multiple * multiple);
}

}  // namespace helionc::passes
