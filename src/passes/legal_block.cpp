#include "passes/legal_block.h"

#include <algorithm>

#include "passes/shape_facts.h"

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

int64_t block_multiple(BlockRole role, const std::vector<ir::ScalarType>& dtypes) {
  const bool packed = std::any_of(dtypes.begin(), dtypes.end(), [](ir::ScalarType t) {
    return ir::dtype_bits(t) == 8 && t != ir::ScalarType::kBool;  // bool is 32-bit in VMEM
  });
  return role == BlockRole::kSublane && packed ? 32 : facts(role).multiple;
}

bool leaves_short_block(int64_t block, int64_t size, int64_t rows) {
  if (block <= 0 || block >= size) return false;
  const int64_t last = size % block == 0 ? block : size % block;
  return std::min(block, last) < rows;
}

int64_t legal_block(std::optional<int64_t> requested, int64_t size, BlockRole role, int64_t other,
                    const std::vector<int64_t>& axes, const std::vector<ir::ScalarType>& dtypes,
                    int64_t rows) {
  const int64_t multiple = block_multiple(role, dtypes);
  const bool by_default = !requested;
  const int64_t wanted = requested ? *requested
                                   : std::max(default_block(size, role, other),
                                              (rows + multiple - 1) / multiple * multiple);
  int64_t block = 0;
  if (std::any_of(axes.begin(), axes.end(), [&](int64_t axis) { return axis != size; })) {
    block = std::max(multiple, std::min(wanted, size) / multiple * multiple);
  } else if (wanted >= size || size <= multiple) {
    return size;
  } else {
    block = std::max(multiple, wanted / multiple * multiple);
  }
  while (by_default && leaves_short_block(block, size, rows)) block += multiple;
  return by_default && rows > 0 ? std::min(block, size) : block;
}

std::vector<std::pair<int, int>> differing_axes(const ShapeFacts& facts, const Launch& launch,
                                                const GridDim& grid) {
  std::vector<std::pair<int, int>> axes;
  std::vector<SizeKey> lengths;
  for (const TileUse& use : grid.uses) {
    const Operand& operand =
        use.output ? launch.outputs[use.operand].operand : launch.inputs[use.operand].operand;
    const int array_axis = operand.view[use.axis].array_axis;
    const SizeKey length = facts.axis_size(operand.binding, array_axis);
    const bool seen = std::any_of(lengths.begin(), lengths.end(), [&](const SizeKey& other) {
      return facts.equal_sizes(other, length);
    });
    if (seen) continue;
    lengths.push_back(length);
    axes.emplace_back(operand.binding, array_axis);
  }
  if (axes.size() < 2) axes.clear();
  return axes;
}

std::vector<int> sublane_bindings(const Launch& launch, const GridDim& grid) {
  std::vector<int> bindings;
  if (grid.role != AxisRole::kSublane || grid.flat) return bindings;
  for (const TileUse& use : grid.uses) {
    if (use.role != AxisRole::kSublane) continue;
    const Operand& operand =
        use.output ? launch.outputs[use.operand].operand : launch.inputs[use.operand].operand;
    if (std::find(bindings.begin(), bindings.end(), operand.binding) == bindings.end()) {
      bindings.push_back(operand.binding);
    }
  }
  return bindings;
}

}  // namespace helionc::passes
