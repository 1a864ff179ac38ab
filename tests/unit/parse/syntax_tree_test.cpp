// SyntaxTree / SyntaxNode: parsing, field access, ranges, and the grammar ABI check.
#include <memory>
#include <string>

#include <catch2/catch.hpp>

#include "parse/syntax_tree.h"

namespace helionc::parse {
namespace {

constexpr const char* kKernel = R"(import torch
import helion.language as hl, helion

@helion.kernel(static_shapes=True)
def add(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    # one tile per block
    out = torch.empty_like(x)
    for tile in hl.tile(x.size()):
        out[tile] = x[tile] + y[tile]
    return out
)";

SyntaxNode find_first(SyntaxNode node, std::string_view type) {
  if (node.type() == type) return node;
  for (SyntaxNode child : node.named_children()) {
    if (SyntaxNode found = find_first(child, type)) return found;
  }
  return {};
}

TEST_CASE("a clean file parses into a module without errors", "[parse]") {
  SourceFile file("add.py", kKernel);
  std::unique_ptr<SyntaxTree> tree = SyntaxTree::parse(file);
  REQUIRE(tree != nullptr);
  SyntaxNode root = tree->root();
  CHECK(root.type() == "module");
  CHECK_FALSE(root.has_error());
  CHECK_FALSE(root.is_error());
  CHECK(&tree->file() == &file);
  CHECK(root.named_children().size() == 3);  // two imports and the decorated definition
}

TEST_CASE("fields, children and parents", "[parse]") {
  SourceFile file("add.py", kKernel);
  auto tree = SyntaxTree::parse(file);
  SyntaxNode decorated = find_first(tree->root(), "decorated_definition");
  REQUIRE(decorated);
  SyntaxNode def = decorated.child_by_field("definition");
  REQUIRE(def);
  CHECK(def.type() == "function_definition");
  CHECK(def.child_by_field("name").text() == "add");
  CHECK(def.child_by_field("return_type").text() == "torch.Tensor");
  CHECK(def.child_by_field("no_such_field").is_null());
  CHECK(def.parent().type() == "decorated_definition");
  CHECK(tree->root().parent().is_null());

  SyntaxNode params = def.child_by_field("parameters");
  std::vector<SyntaxNode> named = params.named_children();
  REQUIRE(named.size() == 2);
  CHECK(named[0].type() == "typed_parameter");
  CHECK(named[0].text() == "x: torch.Tensor");
  // children() keeps the anonymous tokens: ( x , y )
  std::vector<SyntaxNode> all = params.children();
  REQUIRE(all.size() == 5);
  CHECK(all[0].type() == "(");
  CHECK_FALSE(all[0].is_named());
  CHECK(all[1].is_named());
}

TEST_CASE("named_children skips comments", "[parse]") {
  SourceFile file("add.py", kKernel);
  auto tree = SyntaxTree::parse(file);
  SyntaxNode def = find_first(tree->root(), "function_definition");
  SyntaxNode body = def.child_by_field("body");
  REQUIRE(body.type() == "block");
  std::vector<SyntaxNode> statements = body.named_children();
  REQUIRE(statements.size() == 3);
  CHECK(statements[0].type() == "expression_statement");
  CHECK(statements[1].type() == "for_statement");
  CHECK(statements[2].type() == "return_statement");
}

TEST_CASE("children_by_field returns every child under a repeated field", "[parse]") {
  SourceFile file("imports.py", "from a import b as c, d\nimport x, y.z\n");
  auto tree = SyntaxTree::parse(file);
  std::vector<SyntaxNode> statements = tree->root().named_children();
  REQUIRE(statements.size() == 2);
  std::vector<SyntaxNode> from_names = statements[0].children_by_field("name");
  REQUIRE(from_names.size() == 2);
  CHECK(from_names[0].type() == "aliased_import");
  CHECK(from_names[0].child_by_field("alias").text() == "c");
  CHECK(from_names[1].text() == "d");
  std::vector<SyntaxNode> names = statements[1].children_by_field("name");
  REQUIRE(names.size() == 2);
  CHECK(names[1].text() == "y.z");
  CHECK(statements[1].children_by_field("not_a_field").empty());
}

TEST_CASE("ranges and byte offsets point into the source file", "[parse]") {
  SourceFile file("add.py", kKernel);
  auto tree = SyntaxTree::parse(file);
  SyntaxNode body = find_first(tree->root(), "function_definition").child_by_field("body");
  SyntaxNode call = find_first(body, "call");
  REQUIRE(call);
  CHECK(call.text() == "torch.empty_like(x)");
  SourceRange range = call.range();
  CHECK(range.file == &file);
  CHECK(range.begin == call.start_byte());
  CHECK(range.end == call.end_byte());
  CHECK(std::string_view(kKernel).substr(range.begin, range.end - range.begin) == call.text());
  LineColumn at = file.line_column(range.begin);
  CHECK(at.line == 7);
  CHECK(at.column == 11);
}

TEST_CASE("a null node answers every query harmlessly", "[parse]") {
  SyntaxNode null;
  CHECK(null.is_null());
  CHECK_FALSE(static_cast<bool>(null));
  CHECK(null.type().empty());
  CHECK(null.text().empty());
  CHECK_FALSE(null.is_named());
  CHECK_FALSE(null.has_error());
  CHECK(null.child_by_field("name").is_null());
  CHECK(null.children().empty());
  CHECK(null.named_children().empty());
  CHECK(null.parent().is_null());
  CHECK_FALSE(null.range().valid());
}

TEST_CASE("UTF-8 text keeps byte offsets", "[parse]") {
  SourceFile file("u.py", "s = \"h\xC3\xA9llo\"  # caf\xC3\xA9\nt = 1\n");
  auto tree = SyntaxTree::parse(file);
  CHECK_FALSE(tree->root().has_error());
  std::vector<SyntaxNode> statements = tree->root().named_children();
  REQUIRE(statements.size() == 2);
  CHECK(statements[1].text() == "t = 1");
}

TEST_CASE("the grammar's ABI suits the runtime", "[parse][abi]") {
  CHECK(check_grammar_abi() == std::nullopt);
  CHECK(grammar_version() == "0.23.6");
  CHECK(check_grammar_abi_version(TREE_SITTER_LANGUAGE_VERSION) == std::nullopt);
  CHECK(check_grammar_abi_version(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION) == std::nullopt);
  std::optional<std::string> too_new = check_grammar_abi_version(TREE_SITTER_LANGUAGE_VERSION + 1);
  REQUIRE(too_new.has_value());
  CHECK_THAT(*too_new,
             Catch::Contains("language ABI " + std::to_string(TREE_SITTER_LANGUAGE_VERSION + 1)));
  CHECK(check_grammar_abi_version(TREE_SITTER_MIN_COMPATIBLE_LANGUAGE_VERSION - 1).has_value());
}

// Comment-only lines are blanked before tree-sitter sees them (its scanner is quadratic in runs
// of them); a `#` line inside a triple-quoted string is the string's text and must stay.
TEST_CASE("comment lines are blanked for the parser, lines inside strings are not", "[parse]") {
  const char* kStrings =
      "x = '''\n"
      "# in the string until ''' + \"rest\"\n"
      "y = \"\"\"\n"
      "  # it's \"quoted\" \\ {braces}\n"
      "\"\"\"\n"
      "# a comment with '''quotes''' and a \\ backslash\n"
      "z = 1  # not a comment-only line: 'kept'\n"
      "    # an indented comment \"\"\"\n"
      "w = '#' + \"#\"  # strings holding the comment sign\n";
  SourceFile file("strings.py", kStrings);
  auto tree = SyntaxTree::parse(file);
  REQUIRE(tree != nullptr);
  CHECK_FALSE(tree->root().has_error());
  std::vector<SyntaxNode> statements = tree->root().named_children();
  REQUIRE(statements.size() == 4);
  // Blanked, that line would leave the string open to the end of the file.
  CHECK(statements[0].text() == "x = '''\n# in the string until ''' + \"rest\"");
  // Node text comes from the file, so the string keeps its comment-like line as written.
  CHECK(statements[1].text() == "y = \"\"\"\n  # it's \"quoted\" \\ {braces}\n\"\"\"");
  CHECK(statements[2].text() == "z = 1");
  CHECK(statements[3].text() == "w = '#' + \"#\"");
}

TEST_CASE("a lone carriage return ends a comment for the parser", "[parse]") {
  SourceFile file("cr.py", "# a comment\rz = 1\n");
  auto tree = SyntaxTree::parse(file);
  REQUIRE(tree != nullptr);
  CHECK_FALSE(tree->root().has_error());
  std::vector<SyntaxNode> statements = tree->root().named_children();
  REQUIRE(statements.size() == 1);
  CHECK(statements[0].text() == "z = 1");
}

}  // namespace
}  // namespace helionc::parse
