#include "frontend/function_table.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string>

#include "support/did_you_mean.h"

namespace helionc::frontend {

using ir::Intrinsic;

namespace {

// The functions lower_calls.cpp and the files beside it lower by name, and the dtypes
// ir::torch_dtype_from_attr reads (separated by spaces), for suggestions.
constexpr std::string_view kSpecialForms =
    "torch.float32 torch.bfloat16 torch.float16 torch.int32 torch.int16 torch.int8 torch.uint8 "
    "torch.bool torch.float8_e4m3fn torch.float8_e5m2 "
    "torch.add torch.addmm torch.arange torch.argsort torch.baddbmm torch.bmm "
    "torch.broadcast_tensors torch.cat torch.concat torch.concatenate torch.cumprod "
    "torch.cumsum torch.div torch.empty torch.empty_like torch.full torch.full_like "
    "torch.gather torch.get_default_dtype torch.lerp torch.log_softmax torch.matmul torch.max "
    "torch.maximum torch.min torch.minimum torch.mm torch.mul torch.ones torch.ones_like "
    "torch.pow torch.promote_types torch.rand torch.rand_like torch.randn torch.randn_like "
    "torch.softmax torch.sort torch.stack torch.sub torch.tensor torch.topk torch.where "
    "torch.zeros torch.zeros_like torch.nn.functional.gelu torch.nn.functional.pad "
    "torch.nn.functional.relu torch.nn.functional.silu torch.nn.functional.sigmoid "
    "torch.nn.functional.tanh helion.language.arange helion.language.associative_scan "
    "helion.language.atomic_add helion.language.atomic_max helion.language.atomic_min "
    "helion.language.cumprod helion.language.cumsum helion.language.dot helion.language.full "
    "helion.language.grid helion.language.jagged_tile helion.language.join "
    "helion.language.load helion.language.rand helion.language.randint helion.language.reduce "
    "helion.language.register_block_size helion.language.register_tunable "
    "helion.language.specialize helion.language.split helion.language.static_range "
    "helion.language.store helion.language.tile helion.language.tile_index "
    "helion.language.zeros helion.cdiv helion.next_power_of_2 math.ceil math.floor math.fabs "
    "math.pow math.trunc";

bool strip_prefix(std::string_view& name, std::string_view prefix) {
  if (name.substr(0, prefix.size()) != prefix) return false;
  name.remove_prefix(prefix.size());
  return true;
}

// The tensor and tile methods lowered by name beyond the tables (lower_calls.cpp and the files
// beside it), for suggestions.
constexpr std::string_view kSpecialMethods =
    "argsort bmm clamp clip contiguous dim expand expand_as flatten item log_softmax max min mm "
    "ndimension new_empty new_full new_ones new_zeros numel permute pow reshape reshape_as size "
    "softmax sort squeeze stride t to topk transpose type unsqueeze view view_as";

std::vector<std::string_view> split_names(std::string_view names) {
  std::vector<std::string_view> result;
  for (size_t at = 0; at < names.size();) {
    const size_t end = std::min(names.find(' ', at), names.size());
    result.push_back(names.substr(at, end - at));
    at = end + 1;
  }
  return result;
}

}  // namespace

const ops::Operation* unary_function(std::string_view name) { return ops::unary_function(name); }

const ops::Operation* unary_method(std::string_view method) { return ops::unary_method(method); }

std::optional<ir::ScalarType> conversion_method(std::string_view method) {
  if (method == "float") return ir::ScalarType::kFloat32;
  if (method == "half") return ir::ScalarType::kFloat16;
  if (method == "bfloat16") return ir::ScalarType::kBFloat16;
  if (method == "int") return ir::ScalarType::kInt32;
  if (method == "short") return ir::ScalarType::kInt16;
  if (method == "char") return ir::ScalarType::kInt8;
  if (method == "byte") return ir::ScalarType::kUInt8;
  if (method == "bool") return ir::ScalarType::kBool;
  return std::nullopt;
}

bool is_64bit_conversion_method(std::string_view method) {
  return method == "long" || method == "double";
}

std::optional<ir::BinaryOp> binary_operator(std::string_view op) {
  if (op == "+") return ir::BinaryOp::kAdd;
  if (op == "-") return ir::BinaryOp::kSub;
  if (op == "*") return ir::BinaryOp::kMul;
  if (op == "/") return ir::BinaryOp::kDiv;
  if (op == "//") return ir::BinaryOp::kFloorDiv;
  if (op == "%") return ir::BinaryOp::kMod;
  if (op == "**") return ir::BinaryOp::kPow;
  if (op == "&") return ir::BinaryOp::kBitAnd;
  if (op == "|") return ir::BinaryOp::kBitOr;
  if (op == "^") return ir::BinaryOp::kBitXor;
  if (op == "<<") return ir::BinaryOp::kLShift;
  if (op == ">>") return ir::BinaryOp::kRShift;
  return std::nullopt;
}

std::optional<ir::CompareOp> compare_operator(std::string_view op) {
  if (op == "<") return ir::CompareOp::kLt;
  if (op == "<=") return ir::CompareOp::kLe;
  if (op == ">") return ir::CompareOp::kGt;
  if (op == ">=") return ir::CompareOp::kGe;
  if (op == "==") return ir::CompareOp::kEq;
  if (op == "!=") return ir::CompareOp::kNe;
  if (op == "is") return ir::CompareOp::kIs;
  if (op == "is not") return ir::CompareOp::kIsNot;
  return std::nullopt;
}

std::optional<ir::Intrinsic> reduction_function(std::string_view name) {
  if (name == "sum") return Intrinsic::kSum;
  if (name == "mean") return Intrinsic::kMean;
  if (name == "amax") return Intrinsic::kAmax;
  if (name == "amin") return Intrinsic::kAmin;
  if (name == "prod") return Intrinsic::kProd;
  if (name == "argmax") return Intrinsic::kArgmax;
  if (name == "argmin") return Intrinsic::kArgmin;
  return std::nullopt;
}

const std::vector<std::string_view>& known_method_names() {
  static const std::vector<std::string_view> kNames = [] {
    std::vector<std::string_view> names = split_names(kSpecialMethods);
    for (const ops::Operation& operation : ops::operations()) {
      ops::for_each_word(operation.spellings, [&](std::string_view spelling) {
        if (strip_prefix(spelling, "Tensor.")) names.push_back(spelling);
      });
    }
    for (std::string_view name :
         {"sum", "mean", "amax", "amin", "prod", "argmax", "argmin", "float", "half", "bfloat16",
          "int", "short", "char", "byte", "bool"}) {
      if (reduction_function(name) || conversion_method(name)) names.push_back(name);
    }
    return names;
  }();
  return kNames;
}

std::string did_you_mean_method(std::string_view method) {
  const std::optional<std::string_view> best = closest_name(method, known_method_names());
  return best ? fmt::format("; did you mean `.{}()`?", *best) : std::string();
}

const std::vector<std::string_view>& known_function_names() {
  static const std::vector<std::string_view> kNames = [] {
    // Stable storage for the names built from the tables: the ops table's `torch.` spellings of
    // one dot (the modules beneath are listed among the special forms), `torch.` + a reduction.
    static std::vector<std::string> built;
    for (const ops::Operation& operation : ops::operations()) {
      ops::for_each_word(operation.spellings, [&](std::string_view spelling) {
        if (spelling.starts_with("torch.") && spelling.find('.', 6) == std::string_view::npos) {
          built.emplace_back(spelling);
        }
      });
    }
    for (std::string_view name : {"sum", "mean", "amax", "amin", "prod", "argmax", "argmin"}) {
      if (reduction_function(name)) built.push_back("torch." + std::string(name));
    }
    std::vector<std::string_view> names(built.begin(), built.end());
    for (std::string_view name : split_names(kSpecialForms)) names.push_back(name);
    return names;
  }();
  return kNames;
}

std::string did_you_mean_function(std::string_view qualified, std::string_view shown) {
  // Only the last part can be misspelled in a name that resolved through an import (`torch.`,
  // `hl.`), so it is compared with the last parts of the known names under the same module,
  // and the suggestion keeps the user's spelling of the module (`hl.zeros`, `F.gelu`).
  const size_t dot = qualified.rfind('.');
  const std::string_view module = qualified.substr(0, dot + 1);
  std::vector<std::string_view> siblings;
  for (std::string_view known : known_function_names()) {
    if (known.starts_with(module) && known.find('.', module.size()) == std::string_view::npos) {
      siblings.push_back(known.substr(module.size()));
    }
  }
  const std::optional<std::string_view> best = closest_name(qualified.substr(dot + 1), siblings);
  if (!best) return "";
  return fmt::format("; did you mean `{}{}`?", shown.substr(0, shown.rfind('.') + 1), *best);
}

std::optional<std::string_view> gpu_only_reason(std::string_view name) {
  if (name == "helion.language.inline_triton" || name == "helion.language.triton_kernel") {
    return "it embeds Triton code, which only Helion's GPU backends compile";
  }
  if (name == "helion.language.inline_asm_elementwise") {
    return "it embeds GPU assembly (PTX or AMDGPU)";
  }
  if (name == "helion.language.stacktensor_like") {
    return "a StackTensor reads tensors through device pointers, and a TPU kernel reaches only "
           "the arrays passed to it";
  }
  if (name == "torch.nonzero" || name == "torch.argwhere" || name == "torch.masked_select") {
    // Helion refuses these in device code too (its test_errors expects an error).
    return "its result's shape depends on the values (how many are selected), and a TPU "
           "kernel's blocks and results have shapes fixed when JAX traces it";
  }
  return std::nullopt;
}

}  // namespace helionc::frontend
