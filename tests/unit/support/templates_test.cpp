#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include <fmt/core.h>

#include "support/embedded_files.h"
#include "support/templates.h"

using namespace helionc;

namespace helionc::testing {
std::span<const EmbeddedFile> embedded_test_files();
}

namespace {
std::string expand_ok(std::string_view text, const TemplateValues& values) {
  Expected<std::string> result = expand_template(text, values, "t.tmpl");
  INFO((result ? std::string() : result.error()));
  REQUIRE(result.ok());
  return *result;
}
std::string expand_error(std::string_view text, const TemplateValues& values) {
  Expected<std::string> result = expand_template(text, values, "t.tmpl");
  REQUIRE_FALSE(result.ok());
  return result.error();
}
}  // namespace

TEST_CASE("inline placeholders, ${name} and $$", "[templates]") {
  TemplateValues values{{"name", "add"}, {"n", "4"}};
  CHECK(expand_ok("def $name(x):  # ${n}x${n} costs $$5 {braces}\n", values) ==
        "def add(x):  # 4x4 costs $5 {braces}\n");
  CHECK(expand_ok("${name}_kernel $name_x", {{"name", "a"}, {"name_x", "b"}}) == "a_kernel b");
  CHECK(expand_ok("no newline at end $n", values) == "no newline at end 4");
  CHECK(expand_ok("", values).empty());
  // A trailing newline of an inline value is ignored.
  CHECK(expand_ok("x = $v\n", {{"v", "1\n"}}) == "x = 1\n");
}

TEST_CASE("a placeholder alone on a line expands to an indented block", "[templates]") {
  TemplateValues values{{"body", "a = 1\nif a:\n    b = 2\n\nreturn b\n"}, {"empty", ""}};
  CHECK(expand_ok("def f():\n    $body\n    $empty\n\t${empty}  \nend\n", values) ==
        "def f():\n"
        "    a = 1\n"
        "    if a:\n"
        "        b = 2\n"
        "\n"
        "    return b\n"
        "end\n");
  // Tabs in the placeholder's indentation are copied; whitespace-only lines stay empty.
  CHECK(expand_ok("\t$body", {{"body", "x\n  \ny"}}) == "\tx\n\n\ty");
  // Trailing whitespace after the placeholder does not count as text.
  CHECK(expand_ok("  $body  \r\nz", {{"body", "p\nq"}}) == "  p\n  q\nz");
  // A single-line value alone on a line is just indented.
  CHECK(expand_ok("    $v\n", {{"v", "x"}}) == "    x\n");
}

TEST_CASE("template errors name the placeholder and its position", "[templates]") {
  CHECK(expand_error("ok\n  x = $missing + 1\n", {}) ==
        "t.tmpl:2:7: unknown template placeholder `$missing`");
  CHECK(expand_error("    $missing\n", {}) ==
        "t.tmpl:1:5: unknown template placeholder `$missing`");
  CHECK(expand_error("cost $5", {}).starts_with("t.tmpl:1:6: stray `$` in template"));
  CHECK(expand_error("${unclosed", {}).starts_with("t.tmpl:1:1: stray `$`"));
  CHECK(expand_error("${1bad}", {}).starts_with("t.tmpl:1:1: stray `$`"));
  CHECK(expand_error("end $", {}).starts_with("t.tmpl:1:5: stray `$`"));
  CHECK(expand_error("x = $v + 1", {{"v", "a\nb"}}) ==
        "t.tmpl:1:5: placeholder `$v` has a multi-line value but is not alone on its line");
}

TEST_CASE("TemplateSet::from_directory reads *.tmpl files", "[templates]") {
  namespace fs = std::filesystem;
  fs::path dir = fs::temp_directory_path() / "helionc_templates_test";
  fs::remove_all(dir);
  fs::create_directories(dir / "sub.tmpl");  // a directory named like a template: ignored
  std::ofstream(dir / "module.py.tmpl") << "def $name():\n    $body\n";
  std::ofstream(dir / "notes.txt") << "not a template";

  Expected<TemplateSet> set = TemplateSet::from_directory(dir.string());
  REQUIRE(set.ok());
  CHECK(set->names() == std::vector<std::string>{"module.py.tmpl"});
  Expected<std::string> text = set->expand("module.py.tmpl", {{"name", "f"}, {"body", "return 1"}});
  REQUIRE(text.ok());
  CHECK(*text == "def f():\n    return 1\n");

  Expected<std::string_view> missing = set->get("kernel.py.tmpl");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error() ==
        fmt::format("template `kernel.py.tmpl` not found in the template directory `{}`",
                    dir.string()));
  Expected<std::string> bad = set->expand("module.py.tmpl", {{"name", "f"}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error() == "module.py.tmpl:2:5: unknown template placeholder `$body`");

  Expected<TemplateSet> nowhere = TemplateSet::from_directory((dir / "nope").string());
  REQUIRE_FALSE(nowhere.ok());
  CHECK(nowhere.error() ==
        fmt::format("template directory `{}` does not exist or is not a directory",
                    (dir / "nope").string()));
  fs::remove_all(dir);
}

TEST_CASE("the built-in template set answers lookups without crashing", "[templates]") {
  TemplateSet set = TemplateSet::embedded();
  CHECK(set.origin() == "built-in templates");
  Expected<std::string_view> missing = set.get("no-such-template.py.tmpl");
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error() ==
        "template `no-such-template.py.tmpl` not found in the built-in templates");
  for (const std::string& name : set.names()) CHECK(name.ends_with(".tmpl"));
}

TEST_CASE("embedding keeps any bytes exactly", "[templates]") {
  std::map<std::string, std::string> files;
  for (const EmbeddedFile& file : helionc::testing::embedded_test_files())
    files.emplace(std::string(file.name), std::string(file.content));
  // Sorted by name, *.tmpl only.
  CHECK(files.size() == 3);
  CHECK(files.count("ignored.txt") == 0);
  CHECK(files.at("empty.tmpl").empty());
  CHECK(files.at("small.py.tmpl") == "def $name():\n    $body\n");
  static constexpr char kTricky[] =
      "raw )\" and )__\" R\"(x)\" \\ \\n \"quoted\" $$\r\nutf8: \xc3\xa9 bad: \x80 nul: \0 end";
  std::string tricky(kTricky, sizeof kTricky - 1);
  CHECK(files.at("tricky.tmpl") == tricky);
  auto table = helionc::testing::embedded_test_files();
  CHECK(table[0].name == "empty.tmpl");
  CHECK(table[2].name == "tricky.tmpl");
}
