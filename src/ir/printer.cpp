#include "ir/printer.h"

#include <fmt/format.h>

#include <map>

namespace helionc::ir {

namespace {

class IrPrinter {
 public:
  explicit IrPrinter(const Kernel& kernel) : kernel_(kernel) { name_bindings(); }

  std::string kernel() {
    std::vector<std::string> params;
    for (const Param& param : kernel_.params) {
      std::string text =
          fmt::format("{}: {}", names_[param.binding], type(kernel_.bindings[param.binding].type));
      if (param.default_value) text += " = " + expr(param.default_value);
      if (param.pack >= 0) text += fmt::format(" (element {})", param.call_name);
      params.push_back(std::move(text));
    }
    out_ += fmt::format("kernel {}({}) {{\n", kernel_.name, fmt::join(params, ", "));
    out_ += fmt::format("  tunable_blocks {}\n", kernel_.num_tunable_blocks);
    for (const BuiltinConfig& config : kernel_.builtin_configs) {
      out_ += fmt::format("  builtin_config block_sizes [{}]", fmt::join(config.block_sizes, ", "));
      if (config.pallas_loop_type_for_all) {
        out_ += fmt::format(" pallas_loop_type {} (every inner loop)", config.pallas_loop_type[0]);
      } else if (!config.pallas_loop_type.empty()) {
        out_ += fmt::format(" pallas_loop_type [{}]", fmt::join(config.pallas_loop_type, ", "));
      }
      if (config.vmem_limit_bytes)
        out_ += fmt::format(" vmem_limit_bytes {}", *config.vmem_limit_bytes);
      out_ += "\n";
    }
    for (const TileDim& dim : kernel_.tile_dims) out_ += "  " + tile_dim(dim) + "\n";
    block(kernel_.body, 1);
    out_ += "}\n";
    return std::move(out_);
  }

  std::string expr(const ExprPtr& e) {
    if (!e) return "<null>";
    switch (e->kind) {
      case ExprKind::kIntImm:
        return std::to_string(e->as<IntImm>()->value);
      case ExprKind::kFloatImm:
        return e->as<FloatImm>()->spelling;
      case ExprKind::kBoolImm:
        return e->as<BoolImm>()->value ? "True" : "False";
      case ExprKind::kNoneImm:
        return "None";
      case ExprKind::kStringImm:
        return e->as<StringImm>()->spelling;
      case ExprKind::kDtypeImm:
        return std::string(dtype_name(e->as<DtypeImm>()->dtype));
      case ExprKind::kVarRef:
        return names_[e->as<VarRef>()->binding];
      case ExprKind::kUnary: {
        const auto* node = e->as<Unary>();
        return fmt::format("({}{})", unary_op_spelling(node->op), expr(node->operand));
      }
      case ExprKind::kBinary: {
        const auto* node = e->as<Binary>();
        return fmt::format("({} {} {})", expr(node->lhs), binary_op_spelling(node->op),
                           expr(node->rhs));
      }
      case ExprKind::kCompare: {
        const auto* node = e->as<Compare>();
        return fmt::format("({} {} {})", expr(node->lhs), compare_op_spelling(node->op),
                           expr(node->rhs));
      }
      case ExprKind::kCall: {
        const auto* node = e->as<Call>();
        std::vector<std::string> args;
        for (const ExprPtr& arg : node->args) args.push_back(expr(arg));
        return fmt::format("{}({})", intrinsic_name(node->op), fmt::join(args, ", "));
      }
      case ExprKind::kLoad: {
        const auto* node = e->as<Load>();
        return fmt::format("load {}[{}]", expr(node->tensor), index(node->index));
      }
      case ExprKind::kTupleExpr: {
        std::vector<std::string> elements;
        for (const ExprPtr& element : e->as<TupleExpr>()->elements) {
          elements.push_back(expr(element));
        }
        return fmt::format("({}{})", fmt::join(elements, ", "), elements.size() == 1 ? "," : "");
      }
      case ExprKind::kTileAttr: {
        const auto* node = e->as<TileAttr>();
        return fmt::format("{}.{}", kernel_.tile_dims[node->tile_dim].name,
                           tile_attr_name(node->attr));
      }
      case ExprKind::kTupleGet: {
        const auto* node = e->as<TupleGet>();
        return fmt::format("{}[{}]", expr(node->tuple), node->index);
      }
    }
    return "?";
  }

 private:
  void name_bindings() {
    std::map<std::string, int> seen;
    for (const Binding& binding : kernel_.bindings) {
      const int count = seen[binding.name]++;
      names_.push_back(count == 0 ? binding.name : fmt::format("{}.{}", binding.name, count));
    }
  }

  // Types with the kernel's names: `tile_tensor<[tile_m, x.size(1)] x float32>`.
  std::string type(const Type& t) {
    if (t.kind == TypeKind::kTileTensor) {
      std::vector<std::string> dims;
      for (const Dim& dim : t.dims) {
        switch (dim.kind) {
          case Dim::Kind::kTile:
            dims.push_back(kernel_.tile_dims[dim.tile_dim].name);
            break;
          case Dim::Kind::kVariadic:
            dims.push_back("*" + kernel_.tile_dims[dim.tile_dim].name);
            break;
          case Dim::Kind::kFull:
            dims.push_back(fmt::format("{}.size({})", names_[dim.binding], dim.axis));
            break;
          case Dim::Kind::kSlice:
            dims.push_back(fmt::format("{}.size({})[{}]", names_[dim.binding], dim.axis,
                                       print_slice_bounds(kernel_, kernel_.slices[dim.slice])));
            break;
          case Dim::Kind::kUnit:
            dims.push_back("1");
            break;
          case Dim::Kind::kLiteral:
            dims.push_back(std::to_string(dim.extent));
            break;
          case Dim::Kind::kComputed:
            dims.push_back(kernel_.computed_sizes[static_cast<size_t>(dim.size)].text);
            break;
          case Dim::Kind::kTilePart:
            dims.push_back(fmt::format("{}.block_size // {}", kernel_.tile_dims[dim.tile_dim].name,
                                       dim.extent));
            break;
        }
      }
      return fmt::format("tile_tensor<[{}] x {}>", fmt::join(dims, ", "),
                         t.dtype ? dtype_name(*t.dtype) : "?");
    }
    if (t.kind == TypeKind::kTile) {
      std::vector<std::string> dims;
      for (int dim : t.tile_dims) dims.push_back(kernel_.tile_dims[dim].name);
      return fmt::format("tile<{}{}>", fmt::join(dims, ", "), t.variadic ? "..." : "");
    }
    if (t.kind == TypeKind::kTuple) {
      std::vector<std::string> elements;
      for (const Type& element : t.elements) elements.push_back(type(element));
      return fmt::format("tuple<{}>", fmt::join(elements, ", "));
    }
    return type_to_string(t);
  }

  std::string tile_dim(const TileDim& dim) {
    std::string block;
    switch (dim.block.kind) {
      case BlockSource::Kind::kTunable:
        block = fmt::format("block_sizes[{}]{}", dim.block.tunable, dim.variadic ? "..." : "");
        break;
      case BlockSource::Kind::kFixed:
        block = expr(dim.block.size);
        break;
      case BlockSource::Kind::kGrid:
        block = "grid";
        break;
    }
    const std::string begin = dim.begin ? expr(dim.begin) : "0";
    const std::string paired =
        dim.paired_with >= 0
            ? " paired with " + kernel_.tile_dims[static_cast<size_t>(dim.paired_with)].name
            : "";
    return fmt::format("tile {}: {} [{}, {}) block {}{}", dim.name,
                       dim.variadic ? "variadic" : "range", begin, expr(dim.extent), block, paired);
  }

  std::string index(const Index& items) {
    std::vector<std::string> parts;
    for (const IndexItem& item : items) {
      switch (item.kind) {
        case IndexItem::Kind::kTile:
          parts.push_back(kernel_.tile_dims[item.tile_dim].name);
          break;
        case IndexItem::Kind::kVariadic:
          parts.push_back("*" + kernel_.tile_dims[item.tile_dim].name);
          break;
        case IndexItem::Kind::kFull:
          parts.push_back(":");
          break;
        case IndexItem::Kind::kNewAxis:
          parts.push_back("None");
          break;
        case IndexItem::Kind::kScalar:
          parts.push_back(expr(item.scalar));
          break;
        case IndexItem::Kind::kGather:
          parts.push_back("gather " + expr(item.scalar));
          break;
        case IndexItem::Kind::kSlice:
          parts.push_back(print_slice_bounds(kernel_, kernel_.slices[item.slice]));
          break;
      }
    }
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  std::string where(const SourceRange& range) {
    if (!range.valid()) return "";
    return fmt::format("  # line {}", range.file->line_column(range.begin).line);
  }

  std::string targets(const std::vector<int>& bindings) {
    std::vector<std::string> parts;
    for (int binding : bindings) {
      parts.push_back(fmt::format("{}: {}", names_[binding], type(kernel_.bindings[binding].type)));
    }
    return fmt::format("{}", fmt::join(parts, ", "));
  }

  void block(const Block& stmts, int depth) {
    for (const StmtPtr& s : stmts) stmt(*s, depth);
  }

  void stmt(const Stmt& s, int depth) {
    const std::string pad(2 * static_cast<size_t>(depth), ' ');
    switch (s.kind) {
      case StmtKind::kLet: {
        const auto& node = *s.as<Let>();
        // `(m,)`: a one-element unpacking, unlike `m`, which binds the whole value.
        const std::string bound = node.unpack && node.targets.size() == 1
                                      ? fmt::format("({},)", targets(node.targets))
                                      : targets(node.targets);
        out_ += fmt::format("{}let {} = {}{}\n", pad, bound, expr(node.value), where(s.range));
        return;
      }
      case StmtKind::kAlloc: {
        const auto& node = *s.as<Alloc>();
        out_ += fmt::format("{}alloc {} shape {} dtype {} fill {}{}\n", pad, targets({node.target}),
                            expr(node.shape), expr(node.dtype),
                            node.fill ? expr(node.fill) : "undefined", where(s.range));
        return;
      }
      case StmtKind::kStore: {
        const auto& node = *s.as<Store>();
        out_ += fmt::format("{}store {}[{}] {} {}{}\n", pad, expr(node.tensor), index(node.index),
                            node.accumulate ? "+=" : "=", expr(node.value), where(s.range));
        return;
      }
      case StmtKind::kTileLoop: {
        const auto& node = *s.as<TileLoop>();
        std::vector<std::string> dims;
        for (int dim : node.tile_dims) dims.push_back(kernel_.tile_dims[dim].name);
        for (const TileLoop::Carry& carry : node.carried) {
          out_ += fmt::format("{}carry {} = {} then {}\n", pad, targets({carry.phi}),
                              names_[carry.init], names_[carry.next]);
        }
        out_ += fmt::format("{}for {} in tiles({}) {{{}\n", pad, targets(node.loop_vars),
                            fmt::join(dims, ", "), where(s.range));
        block(node.body, depth + 1);
        out_ += pad + "}\n";
        for (const TileLoop::Carry& carry : node.carried) {
          out_ += fmt::format("{}let {} = {}\n", pad, targets({carry.result}), names_[carry.next]);
        }
        return;
      }
      case StmtKind::kStaticLoop: {
        const auto& node = *s.as<StaticLoop>();
        for (const TileLoop::Carry& carry : node.carried) {
          out_ += fmt::format("{}carry {} = {} then {}\n", pad, targets({carry.phi}),
                              names_[carry.init], names_[carry.next]);
        }
        out_ += fmt::format("{}for {} in static_range({}, {}, {}) {{{}\n", pad, targets({node.var}),
                            expr(node.begin), expr(node.end), expr(node.step), where(s.range));
        block(node.body, depth + 1);
        out_ += pad + "}\n";
        for (const TileLoop::Carry& carry : node.carried) {
          out_ += fmt::format("{}let {} = {}\n", pad, targets({carry.result}), names_[carry.next]);
        }
        return;
      }
      case StmtKind::kIf: {
        const auto& node = *s.as<If>();
        out_ += fmt::format("{}{} {} {{{}\n", pad, node.on_device ? "if_device" : "if",
                            expr(node.condition), where(s.range));
        block(node.then_body, depth + 1);
        if (!node.else_body.empty()) {
          out_ += pad + "} else {\n";
          block(node.else_body, depth + 1);
        }
        out_ += pad + "}\n";
        for (const If::Merge& merge : node.merges) {
          out_ += fmt::format("{}let {} = merge({}, {})\n", pad, targets({merge.result}),
                              names_[merge.then_value], names_[merge.else_value]);
        }
        return;
      }
      case StmtKind::kAssert: {
        const auto& node = *s.as<Assert>();
        out_ += fmt::format("{}{} {}{}{}\n", pad, node.implied ? "check" : "assert",
                            expr(node.condition), node.message ? ", " + expr(node.message) : "",
                            where(s.range));
        return;
      }
      case StmtKind::kReturn: {
        std::vector<std::string> values;
        const auto& node = *s.as<Return>();
        for (const ExprPtr& value : node.values) values.push_back(expr(value));
        const char* close = node.tuple && values.size() == 1 ? "," : "";
        out_ +=
            fmt::format("{}return {}{}{}\n", pad, fmt::join(values, ", "), close, where(s.range));
        return;
      }
    }
  }

  const Kernel& kernel_;
  std::vector<std::string> names_;
  std::string out_;
};

}  // namespace

std::string print_kernel(const Kernel& kernel) { return IrPrinter(kernel).kernel(); }

std::string print_module(const Module& module) {
  std::string out;
  for (const Kernel& kernel : module.kernels) {
    if (!out.empty()) out += "\n";
    out += print_kernel(kernel);
  }
  return out;
}

std::string print_expr(const Kernel& kernel, const ExprPtr& expr) {
  return IrPrinter(kernel).expr(expr);
}

std::string print_slice_bounds(const Kernel& kernel, const SliceBounds& slice) {
  IrPrinter printer(kernel);
  return fmt::format("{}:{}", slice.start ? printer.expr(slice.start) : "",
                     slice.stop ? printer.expr(slice.stop) : "");
}

}  // namespace helionc::ir
