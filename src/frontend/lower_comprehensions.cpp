// Comprehensions and sequences known while compiling: `[m * 2 for m in (1, 2, 3)]`,
// `tuple(f(t) for t in (a, b))`, `list(xs)`, `for x in xs` in device code over a name bound
// to such a list, and dicts of constant keys (`{k: k * 2 for k in (1, 2)}`, read as `d[1]`). A
// comprehension is unrolled here into the list it makes, written out (a `TupleExpr`, as `[2, 4, 6]`
// is); its iterable must be a list or tuple of known length or a `range` of constant ints, so the
// elements are known before the module runs.
#include <fmt/format.h>

#include <algorithm>

#include "frontend/kernel_lowering.h"

namespace helionc::frontend {

using ir::ExprPtr;
using ir::Type;
using ir::TypeKind;

namespace {

// The names of a comprehension scope, popped however its body ends (errors throw).
template <typename Frames>
struct ComprehensionScope {
  Frames& frames;
  explicit ComprehensionScope(Frames& f) : frames(f) { frames.emplace_back(); }
  ~ComprehensionScope() { frames.pop_back(); }
  ComprehensionScope(const ComprehensionScope&) = delete;
  ComprehensionScope& operator=(const ComprehensionScope&) = delete;
};

}  // namespace

ExprPtr KernelLowering::comprehension_name(std::string_view name) const {
  for (auto frame = comprehension_frames_.rbegin(); frame != comprehension_frames_.rend();
       ++frame) {
    if (auto it = frame->find(name); it != frame->end()) return it->second;
  }
  return nullptr;
}

ExprPtr KernelLowering::make_sequence(std::vector<ExprPtr> elements, SourceRange range) {
  // As `lower_sequence` types a written-out list: ints make a shape, anything else a tuple.
  std::vector<Type> types;
  bool all_ints = !elements.empty();
  for (const ExprPtr& e : elements) {
    types.push_back(e->type);
    all_ints = all_ints && e->type.kind == TypeKind::kInt;
  }
  Type type =
      all_ints ? Type::shape(static_cast<int>(elements.size())) : Type::tuple(std::move(types));
  return ir::TupleExpr::make(std::move(elements), std::move(type), range);
}

std::optional<std::vector<ExprPtr>> KernelLowering::known_elements(const ExprPtr& value) {
  if (const auto* tuple = value->as<ir::TupleExpr>()) return tuple->elements;
  if (const auto* ref = value->as<ir::VarRef>()) {
    if (auto it = known_sequences_.find(ref->binding); it != known_sequences_.end()) {
      return known_elements(it->second);
    }
  }
  return std::nullopt;
}

void KernelLowering::note_known_sequence(int binding, const ExprPtr& value) {
  // Only lists of values that are the same wherever they are read again: numbers, host
  // scalars, whole tensors and such lists (not device values, which a later store may change).
  const auto stable = [&](const auto& self, const ExprPtr& e) -> bool {
    if (auto elements = known_elements(e)) {
      return std::all_of(elements->begin(), elements->end(),
                         [&](const ExprPtr& x) { return self(self, x); });
    }
    if (is_device_value(e)) return false;
    if (e->type.kind == TypeKind::kTensor) return e->as<ir::VarRef>() != nullptr;
    return e->type.is_scalar();
  };
  if (known_elements(value) && stable(stable, value)) known_sequences_[binding] = value;
}

std::vector<ExprPtr> KernelLowering::iterable_elements(const SyntaxNode& iterable,
                                                       std::string_view what) {
  if (iterable.type() == "list" || iterable.type() == "tuple") {
    std::vector<ExprPtr> elements;
    for (const SyntaxNode& element : iterable.named_children()) {
      if (element.type() == "list_splat" || element.type() == "parenthesized_list_splat") {
        unsupported(element.range(), fmt::format("`*` in the iterable of {}", what));
      }
      elements.push_back(lower_expr(element));
    }
    return elements;
  }
  if (iterable.type() == "call") {
    // `range(...)` / `hl.static_range(...)` of constant ints: their ints, written out.
    const SyntaxNode function = iterable.child_by_field("function");
    const bool is_range =
        (function.type() == "identifier" && function.text() == "range" && !scope_.count("range")) ||
        imports_.qualified_name(function) == "helion.language.static_range";
    if (is_range) {
      const RangeBounds bounds = lower_range_bounds(
          iterable, function.text(), [&](const SyntaxNode& arg, const ExprPtr& bound) {
            if (!bound->as<ir::IntImm>()) {
              unsupported(arg.range(),
                          fmt::format("{} over a `range` whose bounds are not int literals "
                                      "(helionc unrolls it while compiling, so it needs its "
                                      "length)",
                                      what));
            }
          });
      const int64_t begin = bounds.begin->as<ir::IntImm>()->value;
      const int64_t end = bounds.end->as<ir::IntImm>()->value;
      const int64_t step = bounds.step->as<ir::IntImm>()->value;
      if (step == 0) {
        fail(DiagnosticKind::kBadArgument, iterable.range(), "`range` step must not be zero");
      }
      std::vector<ExprPtr> elements;
      for (int64_t i = begin; step > 0 ? i < end : i > end; i += step) {
        if (elements.size() >= kMaxUnrolledElements) {
          fail(DiagnosticKind::kLimitExceeded, iterable.range(),
               fmt::format("{} over more than {} elements is not unrolled", what,
                           kMaxUnrolledElements));
        }
        elements.push_back(ir::IntImm::make(i, iterable.range()));
      }
      return elements;
    }
  }
  const ExprPtr value = lower_expr(iterable);
  if (auto elements = known_elements(value)) return *elements;
  const Type& type = value->type;
  if ((type.kind == TypeKind::kTuple || type.kind == TypeKind::kShape) && type.rank >= 0) {
    return sequence_elements(value, iterable.range());
  }
  unsupported(iterable.range(),
              fmt::format("{} over a `{}` (helionc unrolls it while compiling: the iterable must "
                          "be a list or tuple of known length or a `range` of int literals)",
                          what, ir::type_to_string(type)));
}

void KernelLowering::bind_comprehension_target(const SyntaxNode& target, const ExprPtr& value,
                                               ComprehensionNames& names) {
  if (target.type() == "identifier") {
    names[std::string(target.text())] = value;
    return;
  }
  if (target.type() != "pattern_list" && target.type() != "tuple_pattern" &&
      target.type() != "list_pattern") {
    unsupported(target.range(), "this comprehension target");
  }
  const auto parts = target.named_children();
  const std::vector<ExprPtr> elements = sequence_elements(value, target.range());
  if (parts.size() != elements.size()) {
    fail(DiagnosticKind::kRankMismatch, target.range(),
         fmt::format("cannot unpack {} value{} into {} name{}", elements.size(),
                     elements.size() == 1 ? "" : "s", parts.size(), parts.size() == 1 ? "" : "s"));
  }
  for (size_t i = 0; i < parts.size(); ++i) bind_comprehension_target(parts[i], elements[i], names);
}

void KernelLowering::unroll_comprehension(const std::vector<SyntaxNode>& clauses, size_t next,
                                          const SyntaxNode& body, std::vector<ExprPtr>& out) {
  if (next == clauses.size()) {
    if (body.type() == "pair") {  // a dict comprehension's `key: value`, as a (key, value) tuple
      out.push_back(make_sequence(
          {lower_expr(body.child_by_field("key")), lower_expr(body.child_by_field("value"))},
          body.range()));
      return;
    }
    out.push_back(lower_expr(body));
    return;
  }
  const SyntaxNode& clause = clauses[next];
  if (clause.type() == "if_clause") {
    const ExprPtr condition = lower_expr(clause.named_children().front());
    const auto* constant = condition->as<ir::BoolImm>();
    if (!constant) {
      unsupported(clause.range(),
                  "an `if` in a comprehension whose condition is not `True` or `False` as "
                  "written (helionc unrolls the comprehension while compiling)");
    }
    if (constant->value) unroll_comprehension(clauses, next + 1, body, out);
    return;
  }
  if (clause.type() != "for_in_clause") unsupported(clause.range(), "this comprehension clause");
  if (clause.text().rfind("async", 0) == 0) unsupported(clause.range(), "`async for`");
  const std::vector<ExprPtr> elements =
      iterable_elements(clause.child_by_field("right"), "a comprehension");
  const ComprehensionScope scope(comprehension_frames_);
  for (const ExprPtr& element : elements) {
    comprehension_frames_.back().clear();
    bind_comprehension_target(clause.child_by_field("left"), element, comprehension_frames_.back());
    unroll_comprehension(clauses, next + 1, body, out);
    if (out.size() > kMaxUnrolledElements) {
      fail(DiagnosticKind::kLimitExceeded, clause.range(),
           fmt::format("a comprehension of more than {} elements is not unrolled",
                       kMaxUnrolledElements));
    }
  }
}

ExprPtr KernelLowering::lower_comprehension(const SyntaxNode& node) {
  // `list_comprehension` or `generator_expression`: the body, then the clauses in order.
  const SyntaxNode body = node.child_by_field("body");
  std::vector<SyntaxNode> clauses;
  for (const SyntaxNode& child : node.named_children()) {
    if (child.start_byte() != body.start_byte() || child.end_byte() != body.end_byte()) {
      clauses.push_back(child);
    }
  }
  std::vector<ExprPtr> elements;
  unroll_comprehension(clauses, 0, body, elements);
  return make_sequence(std::move(elements), node.range());
}

ExprPtr KernelLowering::lower_sequence_call(const SyntaxNode& call) {
  // `list(...)` / `tuple(...)` of a generator or of a sequence known while compiling.
  const SyntaxNode callee = call.child_by_field("function");
  if (callee.type() != "identifier" || (callee.text() != "list" && callee.text() != "tuple") ||
      scope_.count(callee.text()) || comprehension_name(callee.text())) {
    return nullptr;
  }
  const SyntaxNode arguments = call.child_by_field("arguments");
  if (arguments.type() == "generator_expression") return lower_comprehension(arguments);
  const auto args = arguments.named_children();
  if (args.empty()) return make_sequence({}, call.range());
  if (args.size() != 1 || args[0].type() == "keyword_argument" || args[0].type() == "list_splat" ||
      args[0].type() == "dictionary_splat") {
    unsupported(call.range(), fmt::format("this call of `{}`", callee.text()));
  }
  return make_sequence(iterable_elements(args[0], fmt::format("`{}`", callee.text())),
                       call.range());
}

std::optional<std::string> KernelLowering::dict_key(const ExprPtr& key) {
  // Keys compared as Python compares them: an int and a bool of one value are one key.
  if (const auto* i = key->as<ir::IntImm>()) return std::to_string(i->value);
  if (const auto* b = key->as<ir::BoolImm>()) return b->value ? "1" : "0";
  if (const auto* text = key->as<ir::StringImm>()) return "s" + text->spelling;  // as written
  return std::nullopt;
}

bool KernelLowering::lower_dict_assignment(const SyntaxNode& target, const SyntaxNode& value) {
  // `d = {k: k * 2 for k in (1, 2, 3)}` or `d = {"a": 1}`: a dict of constant keys, whose
  // values are read by constant keys (`d[1]`); it is no value of the module.
  if (target.type() != "identifier" ||
      (value.type() != "dictionary_comprehension" && value.type() != "dictionary")) {
    return false;
  }
  // Read by name, a dict has one value wherever it is read: host code outside `if`s only.
  if (in_device()) unsupported(value.range(), "a dict in device code (bind it before the loop)");
  if (!static_guards_.empty()) unsupported(value.range(), "binding a dict inside an `if`");
  KnownDict dict;
  const auto add = [&](const SyntaxNode& key_node, const SyntaxNode& value_node) {
    const ExprPtr key = lower_expr(key_node);
    const std::optional<std::string> text = dict_key(key);
    if (!text) {
      unsupported(key_node.range(),
                  "a dict key that is not an int, bool or string literal "
                  "when compiling");
    }
    const ExprPtr element = lower_expr(value_node);
    const auto same = std::find_if(dict.begin(), dict.end(),
                                   [&](const auto& entry) { return entry.first == *text; });
    if (same != dict.end()) {
      same->second = element;  // a later entry of one key wins, as in Python
    } else {
      dict.emplace_back(*text, element);
    }
  };
  if (value.type() == "dictionary") {
    for (const SyntaxNode& pair : value.named_children()) {
      if (pair.type() != "pair") unsupported(pair.range(), "`**` in a dict");
      add(pair.child_by_field("key"), pair.child_by_field("value"));
    }
  } else {
    const SyntaxNode body = value.child_by_field("body");
    if (body.type() != "pair") unsupported(body.range(), "this dict comprehension");
    std::vector<SyntaxNode> clauses;
    for (const SyntaxNode& child : value.named_children()) {
      if (child.start_byte() != body.start_byte()) clauses.push_back(child);
    }
    // The pairs, unrolled as a list comprehension's elements are: each a (key, value) tuple.
    std::vector<ExprPtr> pairs;
    unroll_comprehension(clauses, 0, body, pairs);
    for (const ExprPtr& pair : pairs) {
      const auto* tuple = pair->as<ir::TupleExpr>();
      const std::optional<std::string> text = dict_key(tuple->elements[0]);
      if (!text) {
        unsupported(body.child_by_field("key").range(),
                    "a dict key that is not an int, bool or string literal when compiling");
      }
      const auto same = std::find_if(dict.begin(), dict.end(),
                                     [&](const auto& entry) { return entry.first == *text; });
      if (same != dict.end()) {
        same->second = tuple->elements[1];
      } else {
        dict.emplace_back(*text, tuple->elements[1]);
      }
    }
  }
  const std::string name(target.text());
  scope_.erase(name);
  known_dicts_[name] = std::move(dict);
  return true;
}

ExprPtr KernelLowering::lower_dict_subscript(const SyntaxNode& node) {
  const SyntaxNode base = node.child_by_field("value");
  if (base.type() != "identifier" || comprehension_name(base.text())) return nullptr;
  const auto dict = known_dicts_.find(base.text());
  if (dict == known_dicts_.end() || scope_.count(base.text())) return nullptr;
  const auto items = node.children_by_field("subscript");
  if (items.size() != 1) unsupported(node.range(), "this subscript of a dict");
  const ExprPtr key = lower_expr(items[0]);
  const std::optional<std::string> text = dict_key(key);
  if (!text) {
    unsupported(
        items[0].range(),
        fmt::format("reading the dict `{}` by a key not known when compiling", base.text()));
  }
  for (const auto& [k, value] : dict->second) {
    if (k == *text) return value;
  }
  fail(DiagnosticKind::kBadArgument, items[0].range(),
       fmt::format("the dict `{}` has no key {}", base.text(), items[0].text()));
}

}  // namespace helionc::frontend
