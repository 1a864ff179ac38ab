// Parameters that are lists, tuples or dicts of tensors (ir::ParamPack). Each element the
// kernel reads becomes a tensor parameter of its own (`xs_0`, `d_x`), and every use of the
// pack is resolved here, while compiling: `xs[0]` and `d["x"]` name the element, `a, b = xs`
// binds each name to one, `for x in xs` (with `enumerate` and `zip`) is unrolled and `len(xs)`
// is a number. The element count therefore has to be known from the kernel: a `tuple[...]`
// annotation with one `torch.Tensor` per element, an unpacking `a, b = xs`, or else the
// constant indices read (then the caller may pass more elements, which the kernel ignores).
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <functional>
#include <set>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::ParamPack;
using ir::Type;
using ir::TypeKind;

namespace {

struct PackAnnotation {
  ParamPack::Kind kind = ParamPack::Kind::kSequence;
  std::optional<size_t> length;  // `tuple[torch.Tensor, torch.Tensor]`
};

bool is_tensor_name(std::string_view text) { return text == "torch.Tensor" || text == "Tensor"; }

// `text` without spaces, `typing.` and `collections.abc.` prefixes.
std::string compact_annotation(std::string_view text) {
  std::string compact;
  for (char c : text) {
    if (c != ' ' && c != '\n') compact += c;
  }
  for (const std::string_view prefix : {"typing.", "collections.abc."}) {
    if (compact.starts_with(prefix)) compact.erase(0, prefix.size());
  }
  return compact;
}

std::optional<PackAnnotation> pack_annotation(std::string_view text) {
  const std::string compact = compact_annotation(text);
  const size_t open = compact.find('[');
  if (open == std::string::npos || !compact.ends_with("]")) return std::nullopt;
  const std::string_view head = std::string_view(compact).substr(0, open);
  const std::string_view inner =
      std::string_view(compact).substr(open + 1, compact.size() - open - 2);
  std::vector<std::string_view> parts;
  for (size_t begin = 0;;) {
    const size_t comma = inner.find(',', begin);
    parts.push_back(inner.substr(begin, comma - begin));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  if (head == "list" || head == "List" || head == "Sequence") {
    if (parts.size() == 1 && is_tensor_name(parts[0])) return PackAnnotation{};
    return std::nullopt;
  }
  if (head == "tuple" || head == "Tuple") {
    if (parts.size() == 2 && is_tensor_name(parts[0]) && parts[1] == "...") {
      return PackAnnotation{};
    }
    if (!std::all_of(parts.begin(), parts.end(), is_tensor_name)) return std::nullopt;
    return PackAnnotation{ParamPack::Kind::kSequence, parts.size()};
  }
  if (head == "dict" || head == "Dict" || head == "Mapping") {
    if (parts.size() == 2 && (parts[0] == "str" || parts[0] == "int") && is_tensor_name(parts[1])) {
      return PackAnnotation{ParamPack::Kind::kDict, std::nullopt};
    }
  }
  return std::nullopt;
}

bool same_node(const SyntaxNode& a, const SyntaxNode& b) {
  return a && b && a.start_byte() == b.start_byte() && a.end_byte() == b.end_byte() &&
         a.type() == b.type();
}

// A constant index of a sequence (`0`, `-1`).
std::optional<int64_t> literal_index(const SyntaxNode& node) {
  SyntaxNode digits = node;
  bool negative = false;
  if (node.type() == "unary_operator" && node.child_by_field("operator").text() == "-") {
    digits = node.child_by_field("argument");
    negative = true;
  }
  if (digits.type() != "integer") return std::nullopt;
  const std::string_view text = digits.text();
  if (text.empty() || text.size() > 9 ||
      !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  const int64_t value = std::stoll(std::string(text));
  return negative ? -value : value;
}

// A constant key of a dict: a string literal spelled as an identifier (`"x"`), or a
// non-negative int; the calls' shapes name the element after it (`d.x`, `d.0`).
std::optional<std::string> literal_key(const SyntaxNode& node) {
  if (node.type() == "integer") {
    if (auto index = literal_index(node)) return std::to_string(*index);
    return std::nullopt;
  }
  if (node.type() != "string") return std::nullopt;
  const std::string_view text = node.text();
  if (text.size() < 3 || (text.front() != '"' && text.front() != '\'') ||
      text.back() != text.front()) {
    return std::nullopt;
  }
  const std::string_view key = text.substr(1, text.size() - 2);
  const bool identifier = !std::isdigit(static_cast<unsigned char>(key[0])) &&
                          std::all_of(key.begin(), key.end(), [](char c) {
                            return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
                          });
  if (!identifier) return std::nullopt;
  return std::string(key);
}

// How the body uses a pack's name (found by a syntax walk, before the body is lowered).
struct PackUses {
  int64_t max_index = -1;         // the largest constant index read (`xs[1]`)
  std::vector<std::string> keys;  // constant keys read (`d["x"]`), first use first
  std::vector<bool> key_is_int;
  std::optional<size_t> unpacked;  // `a, b = xs`
  SyntaxNode whole;                // the first other use (`for x in xs`, `len(xs)`)
};

void scan_uses(const SyntaxNode& node, std::string_view name, PackUses& uses) {
  if (node.type() == "identifier" && node.text() == name) {
    const SyntaxNode parent = node.parent();
    if (parent.type() == "subscript" && same_node(parent.child_by_field("value"), node)) {
      const auto items = parent.children_by_field("subscript");
      if (items.size() == 1) {
        if (auto index = literal_index(items[0]); index && *index >= 0) {
          uses.max_index = std::max(uses.max_index, *index);
        }
        if (auto key = literal_key(items[0]);
            key && std::find(uses.keys.begin(), uses.keys.end(), *key) == uses.keys.end()) {
          uses.keys.push_back(*key);
          uses.key_is_int.push_back(items[0].type() == "integer");
        }
      }
      return;
    }
    const SyntaxNode left = parent.child_by_field("left");
    if (parent.type() == "assignment" && same_node(parent.child_by_field("right"), node) &&
        (left.type() == "pattern_list" || left.type() == "tuple_pattern" ||
         left.type() == "list_pattern")) {
      if (!uses.unpacked) uses.unpacked = left.named_children().size();
      return;
    }
    if (!uses.whole) uses.whole = node;
    return;
  }
  for (const SyntaxNode& child : node.named_children()) scan_uses(child, name, uses);
}

void collect_identifiers(const SyntaxNode& node, std::set<std::string, std::less<>>& names) {
  if (node.type() == "identifier") names.emplace(node.text());
  for (const SyntaxNode& child : node.named_children()) collect_identifiers(child, names);
}

bool iterates_pack(const SyntaxNode& node, const std::function<bool(const SyntaxNode&)>& is_pack);

const char* kind_words(const ParamPack& pack) {
  return pack.kind == ParamPack::Kind::kDict ? "dict" : "list or tuple";
}

}  // namespace

struct KernelLowering::PackItem {
  int tensor = -1;  // an element of a pack, or a tensor named in a written-out tuple
  ExprPtr value;    // else a value (`enumerate`'s counter, an element of a tuple of numbers)
  std::vector<PackItem> parts;  // else a pair or more (`enumerate`, `zip`)
};

bool KernelLowering::lower_pack_param(const SyntaxNode& name, const SyntaxNode& annotation) {
  const std::string_view text = name.text();
  const SyntaxNode body = syntax_.function.child_by_field("body");
  PackUses uses;
  scan_uses(body, text, uses);
  std::optional<PackAnnotation> declared;
  if (annotation) {
    declared = pack_annotation(annotation.text());
    if (!declared) return false;
  } else if (uses.unpacked) {
    // Unannotated and unpacked (`a, b = pair`): a tuple of tensors, as Helion's callers pass.
    declared = PackAnnotation{};
  } else if (!uses.keys.empty() && uses.max_index < 0) {
    declared = PackAnnotation{ParamPack::Kind::kDict, std::nullopt};  // `d["x"]`
  } else {
    return false;
  }
  ParamPack pack;
  pack.name = std::string(text);
  pack.kind = declared->kind;
  pack.range = name.range();
  std::vector<std::string> suffixes;
  if (pack.kind == ParamPack::Kind::kDict) {
    for (size_t i = 0; i < uses.keys.size(); ++i) {
      pack.keys.push_back(uses.key_is_int[i] ? uses.keys[i] : "'" + uses.keys[i] + "'");
      suffixes.push_back(uses.keys[i]);
    }
    if (suffixes.empty()) {
      fail(DiagnosticKind::kUnsupported, uses.whole ? uses.whole.range() : name.range(),
           fmt::format("a dict of tensors is read by constant keys (`{}[\"x\"]`); `{}` is read "
                       "by none",
                       text, text));
    }
  } else {
    size_t length = static_cast<size_t>(uses.max_index + 1);
    if (declared->length) {
      length = *declared->length;
      pack.exact = true;
    } else if (uses.unpacked) {
      length = *uses.unpacked;
      pack.exact = true;
    }
    if (length == 0) {
      fail(DiagnosticKind::kUnsupported, uses.whole ? uses.whole.range() : name.range(),
           fmt::format("the length of `{}` is not known when compiling: its tensors are separate "
                       "arrays of the module, so helionc unrolls its uses and needs the length; "
                       "declare it `tuple[torch.Tensor, torch.Tensor]` (one `torch.Tensor` per "
                       "element) or unpack it (`a, b = {}`)",
                       text, text));
    }
    for (size_t i = 0; i < length; ++i) suffixes.push_back(std::to_string(i));
  }
  std::set<std::string, std::less<>> taken;
  collect_identifiers(syntax_.function, taken);
  const int index = static_cast<int>(kernel_.packs.size());
  for (const std::string& suffix : suffixes) {
    // The element's Python name in the module: one no source name uses.
    std::string element = fmt::format("{}_{}", text, suffix);
    while (taken.count(element)) element += "_";
    taken.insert(element);
    const int id =
        bind_hidden(element, Type::tensor(-1), ir::Binding::Origin::kParam, name.range());
    holds_param_[id] = id;
    pack.elements.push_back(id);
    ir::Param param;
    param.binding = id;
    param.pack = index;
    param.call_name = fmt::format("{}.{}", text, suffix);
    kernel_.params.push_back(std::move(param));
  }
  kernel_.packs.push_back(pack);
  packs_.push_back(std::move(pack));  // at the same index: local packs come after all params
  pack_names_[std::string(text)] = index;
  return true;
}

int KernelLowering::pack_named(const SyntaxNode& node) const {
  if (node.type() != "identifier" || scope_.count(node.text())) return -1;
  const auto it = pack_names_.find(node.text());
  return it == pack_names_.end() ? -1 : it->second;
}

const std::vector<int>& KernelLowering::exact_pack(int pack, const SyntaxNode& use) {
  const ParamPack& found = packs_[pack];
  if (found.kind == ParamPack::Kind::kDict) {
    fail(DiagnosticKind::kUnsupported, use.range(),
         fmt::format("`{}` is a dict of tensors: only constant keys read it (`{}[\"x\"]`)",
                     found.name, found.name));
  }
  if (!found.exact) {
    fail(DiagnosticKind::kUnsupported, use.range(),
         fmt::format("the length of `{}` is not known when compiling (the kernel reads it only "
                     "by constant indices); declare it `tuple[torch.Tensor, torch.Tensor]` (one "
                     "`torch.Tensor` per element) to iterate over it or take its `len`",
                     found.name));
  }
  return found.elements;
}

ExprPtr KernelLowering::lower_pack_subscript(const SyntaxNode& node) {
  const SyntaxNode base = node.child_by_field("value");
  const int pack = pack_named(base);
  if (pack < 0) return nullptr;
  const ParamPack& found = packs_[pack];
  const auto items = node.children_by_field("subscript");
  if (items.size() == 1 && found.kind == ParamPack::Kind::kDict) {
    if (auto key = literal_key(items[0])) {
      const std::string literal = items[0].type() == "integer" ? *key : "'" + *key + "'";
      const auto it = std::find(found.keys.begin(), found.keys.end(), literal);
      if (it != found.keys.end()) {
        return ref(found.elements[it - found.keys.begin()], node.range());
      }
    }
  }
  if (items.size() == 1 && found.kind == ParamPack::Kind::kSequence) {
    if (auto index = literal_index(items[0])) {
      const auto length = static_cast<int64_t>(found.elements.size());
      if (*index < 0 && !found.exact) {
        fail(DiagnosticKind::kUnsupported, items[0].range(),
             fmt::format("a negative index needs the length of `{}`, which is not known when "
                         "compiling; declare it `tuple[torch.Tensor, torch.Tensor]` (one "
                         "`torch.Tensor` per element)",
                         found.name));
      }
      if (*index >= length || *index < -length) {
        fail(DiagnosticKind::kRankMismatch, items[0].range(),
             fmt::format("index {} is out of range for `{}`, a tuple of {} tensor{}", *index,
                         found.name, length, length == 1 ? "" : "s"));
      }
      return ref(found.elements[(*index + length) % length], node.range());
    }
  }
  fail(DiagnosticKind::kUnsupported, node.range(),
       fmt::format("`{}` is a {} of tensors, which the module passes as separate arrays: index "
                   "it with a constant (`{}`)",
                   found.name, kind_words(found),
                   found.kind == ParamPack::Kind::kDict ? fmt::format("{}[\"x\"]", found.name)
                                                        : fmt::format("{}[0]", found.name)));
}

bool KernelLowering::lower_pack_comprehension(const SyntaxNode& target, const SyntaxNode& value,
                                              ir::Block& out) {
  SyntaxNode comprehension = value;
  if (value.type() == "call") {
    // `tuple(f(x) for x in xs)`: the call's argument is the generator itself.
    const SyntaxNode callee = value.child_by_field("function");
    comprehension = value.child_by_field("arguments");
    if (callee.type() != "identifier" || (callee.text() != "list" && callee.text() != "tuple") ||
        scope_.count(callee.text()) || comprehension.type() != "generator_expression") {
      return false;
    }
  } else if (value.type() != "list_comprehension") {
    return false;
  }
  const auto clauses = comprehension.named_children();
  const SyntaxNode body = comprehension.child_by_field("body");
  if (clauses.size() != 2 || clauses[1].type() != "for_in_clause") return false;
  const SyntaxNode loop_target = clauses[1].child_by_field("left");
  const SyntaxNode iterable = clauses[1].child_by_field("right");
  if (!iterates_pack(iterable, [&](const SyntaxNode& n) { return pack_named(n) >= 0; })) {
    return false;
  }
  if (target.type() != "identifier") {
    unsupported(target.range(), "this target for a comprehension over a list of tensors");
  }
  if (in_device()) {
    unsupported(value.range(), "a comprehension over a list of tensors in device code");
  }
  // Python's comprehension variables do not outlive it: the scope is restored afterwards. The
  // module binds them as locals of the function, so one may not shadow a name in use.
  std::set<std::string, std::less<>> variables;
  collect_identifiers(loop_target, variables);
  for (const std::string& name : variables) {
    if (scope_.count(name) || pack_names_.count(name)) {
      unsupported(loop_target.range(),
                  fmt::format("a comprehension variable that shadows `{}`", name));
    }
  }
  const auto outer_scope = scope_;
  std::set<std::string, std::less<>> taken;
  collect_identifiers(syntax_.function, taken);
  ParamPack pack;
  pack.name = std::string(target.text());
  pack.exact = true;
  pack.range = target.range();
  const std::vector<PackItem> items = pack_items(iterable);
  for (size_t i = 0; i < items.size(); ++i) {
    bind_pack_item(loop_target, items[i], out);
    const ExprPtr element = lower_expr(body);
    if (element->type.kind != TypeKind::kTensor) {
      fail(DiagnosticKind::kUnsupported, body.range(),
           fmt::format("a comprehension over a list of tensors makes tensors here, not `{}`",
                       ir::type_to_string(element->type)));
    }
    std::string name = fmt::format("{}_{}", pack.name, i);
    while (taken.count(name)) name += "_";
    taken.insert(name);
    const int id = bind_hidden(name, element->type, ir::Binding::Origin::kHost, body.range());
    out.push_back(ir::Let::make(id, element, value.range()));
    pack.elements.push_back(id);
  }
  scope_ = outer_scope;
  scope_.erase(pack.name);
  pack_names_[pack.name] = static_cast<int>(packs_.size());
  packs_.push_back(std::move(pack));
  return true;
}

bool KernelLowering::lower_pack_assignment(const SyntaxNode& target, const SyntaxNode& value,
                                           ir::Block& out) {
  if (lower_pack_comprehension(target, value, out)) return true;
  SyntaxNode source = value;
  if (value.type() == "call") {
    // `list(xs)`, `tuple(xs)`: the same tensors.
    const SyntaxNode callee = value.child_by_field("function");
    const auto args = value.child_by_field("arguments").named_children();
    if (callee.type() == "identifier" && (callee.text() == "list" || callee.text() == "tuple") &&
        !scope_.count(callee.text()) && args.size() == 1) {
      source = args[0];
    }
  }
  const int pack = pack_named(source);
  if (pack < 0) return false;
  if (target.type() == "identifier") {
    exact_pack(pack, value);
    scope_.erase(std::string(target.text()));
    pack_names_[std::string(target.text())] = pack;
    return true;
  }
  if (target.type() != "pattern_list" && target.type() != "tuple_pattern" &&
      target.type() != "list_pattern") {
    return false;
  }
  const std::vector<int> elements = exact_pack(pack, value);
  const auto names = target.named_children();
  if (names.size() != elements.size()) {
    fail(DiagnosticKind::kRankMismatch, target.range(),
         fmt::format("cannot unpack `{}`, a tuple of {} tensor{}, into {} name{}",
                     packs_[pack].name, elements.size(), elements.size() == 1 ? "" : "s",
                     names.size(), names.size() == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < names.size(); ++i) {
    if (names[i].type() != "identifier") {
      unsupported(names[i].range(), "this target for an element of a tuple of tensors");
    }
    bind_targets(names[i], ref(elements[i], value.range()), target.range(), out);
  }
  return true;
}

ExprPtr KernelLowering::lower_pack_len(const SyntaxNode& argument) {
  const int pack = pack_named(argument);
  if (pack < 0) return nullptr;
  return ir::IntImm::make(static_cast<int64_t>(exact_pack(pack, argument).size()),
                          argument.range());
}

namespace {

// Whether a `for` loop's iterable reads a pack: the pack, or `enumerate`/`zip` of one.
bool iterates_pack(const SyntaxNode& node, const std::function<bool(const SyntaxNode&)>& is_pack) {
  if (is_pack(node)) return true;
  if (node.type() != "call") return false;
  const SyntaxNode callee = node.child_by_field("function");
  if (callee.type() != "identifier" || (callee.text() != "enumerate" && callee.text() != "zip")) {
    return false;
  }
  const auto args = node.child_by_field("arguments").named_children();
  return std::any_of(args.begin(), args.end(), [&](const SyntaxNode& arg) {
    return arg.type() != "keyword_argument" && iterates_pack(arg, is_pack);
  });
}

}  // namespace

std::vector<KernelLowering::PackItem> KernelLowering::pack_items(const SyntaxNode& iterable) {
  std::vector<PackItem> items;
  if (const int pack = pack_named(iterable); pack >= 0) {
    for (int element : exact_pack(pack, iterable)) items.push_back({element, nullptr, {}});
    return items;
  }
  const SyntaxNode callee = iterable.child_by_field("function");
  if (iterable.type() == "call" && callee.type() == "identifier" && !scope_.count(callee.text()) &&
      (callee.text() == "enumerate" || callee.text() == "zip")) {
    const CallArgs args = split_args(iterable);
    if (callee.text() == "enumerate") {
      check_arity(args, "enumerate", 1, 2, {"start"});
      int64_t start = 0;
      if (const SyntaxNode given = argument(args, 1, "start")) {
        const ExprPtr value = lower_expr(given);
        const auto* imm = value->as<ir::IntImm>();
        if (!imm) {
          unsupported(given.range(), "a `start` of `enumerate` that is not an int literal");
        }
        start = imm->value;
      }
      std::vector<PackItem> inner = pack_items(args.positional[0]);
      for (size_t i = 0; i < inner.size(); ++i) {
        PackItem counter{
            -1, ir::IntImm::make(start + static_cast<int64_t>(i), args.call.range()), {}};
        items.push_back({-1, nullptr, {std::move(counter), std::move(inner[i])}});
      }
      return items;
    }
    check_arity(args, "zip", 1, 8, {"strict"});
    bool strict = false;
    if (const SyntaxNode given = args.keyword("strict")) {
      if (given.type() != "true" && given.type() != "false") {
        unsupported(given.range(), "a `strict` of `zip` that is not `True` or `False`");
      }
      strict = given.type() == "true";
    }
    std::vector<std::vector<PackItem>> columns;
    for (const SyntaxNode& arg : args.positional) columns.push_back(pack_items(arg));
    size_t rows = columns[0].size();
    for (const auto& column : columns) {
      if (strict && column.size() != rows) {
        fail(DiagnosticKind::kRankMismatch, args.call.range(),
             fmt::format("`zip(..., strict=True)` of sequences of {} and {} elements", rows,
                         column.size()));
      }
      rows = std::min(rows, column.size());
    }
    for (size_t row = 0; row < rows; ++row) {
      PackItem item;
      for (auto& column : columns) item.parts.push_back(std::move(column[row]));
      items.push_back(std::move(item));
    }
    return items;
  }
  if (iterable.type() == "list" || iterable.type() == "tuple") {
    for (const SyntaxNode& element : iterable.named_children()) {
      const auto tensor =
          element.type() == "identifier" ? scope_.find(element.text()) : scope_.end();
      if (tensor != scope_.end() && binding(tensor->second).type.kind == TypeKind::kTensor) {
        items.push_back({tensor->second, nullptr, {}});
      } else {
        items.push_back({-1, lower_expr(element), {}});
      }
    }
    return items;
  }
  // A tuple or shape of known length (`scales = (0.5, 1.0)`, `x.shape`).
  const ExprPtr value = lower_expr(iterable);
  if (auto known = known_elements(value)) {
    // A list bound to a name (`ts = (a, b)`, `ms = [m * 2 for m in (1, 2)]`): its elements,
    // read again here, the whole tensors among them as arrays.
    for (ExprPtr& element : *known) {
      const auto* ref = element->as<ir::VarRef>();
      if (ref && binding(ref->binding).type.kind == TypeKind::kTensor) {
        items.push_back({ref->binding, nullptr, {}});
      } else {
        items.push_back({-1, std::move(element), {}});
      }
    }
    return items;
  }
  if ((value->type.kind != TypeKind::kTuple && value->type.kind != TypeKind::kShape) ||
      value->type.rank < 0) {
    unsupported(iterable.range(), "iterating over this value alongside a tuple of tensors");
  }
  for (ExprPtr element : sequence_elements(value, iterable.range())) {
    items.push_back({-1, std::move(element), {}});
  }
  return items;
}

void KernelLowering::bind_pack_item(const SyntaxNode& target, const PackItem& item,
                                    ir::Block& out) {
  if (target.type() == "identifier") {
    if (item.tensor >= 0) {
      // A whole tensor is not a device value: the target names the same array.
      scope_[std::string(target.text())] = item.tensor;
      return;
    }
    if (!item.value)
      unsupported(target.range(), "binding a pair of `enumerate` or `zip` to one name");
    return bind_targets(target, item.value, target.range(), out);
  }
  if (target.type() == "pattern_list" || target.type() == "tuple_pattern" ||
      target.type() == "list_pattern") {
    // An element that is itself a tuple (`for i, j in pairs`): unpacked as an assignment is.
    if (item.parts.empty() && item.value)
      return bind_targets(target, item.value, target.range(), out);
    const auto names = target.named_children();
    if (names.size() != item.parts.size()) {
      fail(DiagnosticKind::kRankMismatch, target.range(),
           fmt::format("cannot unpack {} value{} into {} name{}", item.parts.size(),
                       item.parts.size() == 1 ? "" : "s", names.size(),
                       names.size() == 1 ? "" : "s"));
    }
    for (size_t i = 0; i < names.size(); ++i) bind_pack_item(names[i], item.parts[i], out);
    return;
  }
  unsupported(target.range(), "this loop target");
}

bool KernelLowering::lower_pack_for(const SyntaxNode& node, ir::Block& out) {
  const SyntaxNode iterable = node.child_by_field("right");
  // Also a name of a tuple of numbers of known length (`constants: tuple[int, int]`), which
  // a loop in device code could not iterate before.
  const auto unrolled = [&](const SyntaxNode& n) {
    if (pack_named(n) >= 0) return true;
    // In `enumerate`/`zip`, also a list written out or a comprehension (`enumerate((2, 3))`);
    // alone, those are lower_unrolled_for's.
    const bool nested =
        n.start_byte() != iterable.start_byte() || n.end_byte() != iterable.end_byte();
    if (nested && in_device() &&
        (n.type() == "list" || n.type() == "tuple" || n.type() == "list_comprehension")) {
      return true;
    }
    const auto it = n.type() == "identifier" ? scope_.find(n.text()) : scope_.end();
    if (it == scope_.end() || !in_device()) return false;
    const Type& type = binding(it->second).type;
    return (type.kind == TypeKind::kTuple || type.kind == TypeKind::kShape) && type.rank >= 0;
  };
  if (!iterates_pack(iterable, unrolled)) return false;
  if (!in_device()) {
    unsupported(iterable.range(),
                "a `for` loop over a list or tuple of tensors in host code (loop inside "
                "`hl.tile`)");
  }
  if (node.child_by_field("alternative")) unsupported(node.range(), "`for ... else`");
  const SyntaxNode target = node.child_by_field("left");
  const std::vector<PackItem> items = pack_items(iterable);
  const bool failed_before = failed_;
  for (const PackItem& item : items) {
    bind_pack_item(target, item, out);
    for (const SyntaxNode& stmt : node.child_by_field("body").named_children()) {
      try {
        lower_statement(stmt, out);
      } catch (const LoweringAbort&) {
        poison_targets(stmt);
      }
    }
    if (failed_ && !failed_before) break;  // one report per broken statement
  }
  return true;
}

}  // namespace helionc::frontend
