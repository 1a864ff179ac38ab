#include <catch2/catch.hpp>

#include "support/diagnostics.h"

using namespace helionc;

namespace {
// The range of the first occurrence of `needle` in `file`.
SourceRange find(const SourceFile& file, std::string_view needle) {
  auto begin = static_cast<uint32_t>(file.text().find(needle));
  REQUIRE(begin != std::string::npos);
  return file.range(begin, begin + static_cast<uint32_t>(needle.size()));
}
}  // namespace

TEST_CASE("diagnostic kind names come from the .def list", "[diagnostics]") {
  CHECK(diagnostic_kind_name(DiagnosticKind::kSyntaxError) == "syntax-error");
  CHECK(diagnostic_kind_name(DiagnosticKind::kConfigSchema) == "config-schema");
  CHECK(diagnostic_kind_name(DiagnosticKind::kInternal) == "internal");
  CHECK(diagnostic_kind_from_name("unused-value") == DiagnosticKind::kUnusedValue);
  CHECK_FALSE(diagnostic_kind_from_name("no-such-flag").has_value());
}

TEST_CASE("-W takes the names warnings print, and only those", "[diagnostics]") {
  // An error's name is no warning option: -Wno-syntax-error would silently do nothing.
  CHECK(warning_kind_from_name("missing-device-loop") == DiagnosticKind::kMissingDeviceLoop);
  CHECK_FALSE(warning_kind_from_name("syntax-error").has_value());
  DiagnosticEngine diags;
  CHECK_FALSE(diags.set_warning_enabled("syntax-error", false));
  const std::vector<std::string_view> names = warning_names();
  CHECK(names.size() == 7);
  for (std::string_view name : names) {
    // `[-Wno-x]` would read as the option that disables `x`.
    CHECK_FALSE(name.starts_with("no-"));
    CHECK(warning_kind_from_name(name).has_value());
  }
}

TEST_CASE("an error renders in GCC's shape with the line and a caret", "[diagnostics]") {
  SourceFile file("kernel.py", "def f(x):\n    y = foo(x)\n    return y\n");
  DiagnosticEngine diags;
  diags.error(DiagnosticKind::kUnknownFunction, find(file, "foo"), "unknown function `foo`")
      .note(find(file, "def f"), "in kernel `f`")
      .note({}, "supported functions are listed in helion-subset.md");
  CHECK(diags.has_errors());
  CHECK(diags.error_count() == 1);
  CHECK(diags.render() ==
        "kernel.py:2:9: error: unknown function `foo`\n"
        "    2 |     y = foo(x)\n"
        "      |         ^~~\n"
        "kernel.py:1:1: note: in kernel `f`\n"
        "    1 | def f(x):\n"
        "      | ^~~~~\n"
        "helionc: note: supported functions are listed in helion-subset.md\n");
}

TEST_CASE("colour follows GCC's escape sequences", "[diagnostics]") {
  SourceFile file("k.py", "x = y\n");
  DiagnosticEngine diags({.color = true});
  diags.error(DiagnosticKind::kUndefinedName, find(file, "y"), "undefined name `y`")
      .note({}, "a note");
  diags.warning(DiagnosticKind::kIgnoredKeyword, find(file, "x"), "unused");
  CHECK(
      diags.render() ==
      "\033[01m\033[Kk.py:1:5:\033[m\033[K \033[01;31m\033[Kerror: \033[m\033[Kundefined name `y`\n"
      "    1 | x = y\n"
      "      |     \033[01;32m\033[K^\033[m\033[K\n"
      "\033[01m\033[Khelionc:\033[m\033[K \033[01;36m\033[Knote: \033[m\033[Ka note\n"
      "\033[01m\033[Kk.py:1:1:\033[m\033[K \033[01;35m\033[Kwarning: \033[m\033[Kunused "
      "[\033[01;35m\033[K-Wignored-keyword\033[m\033[K]\n"
      "    1 | x = y\n"
      "      | \033[01;32m\033[K^\033[m\033[K\n");
}

TEST_CASE("diagnostics without a place use the program name", "[diagnostics]") {
  DiagnosticEngine diags;
  diags.error(DiagnosticKind::kInputFile, {}, "cannot open `k.py`: No such file or directory");
  CHECK(diags.render() == "helionc: error: cannot open `k.py`: No such file or directory\n");
}

TEST_CASE("multi-line, empty and end-of-line ranges", "[diagnostics]") {
  SourceFile file("k.py", "if (a and\n    b):\n  pass");
  DiagnosticEngine diags;
  // A range over two lines: `~` to the end of the first line.
  diags.error(DiagnosticKind::kUnsupported, find(file, "(a and\n    b)"), "multi");
  // An empty range: a single caret.
  diags.error(DiagnosticKind::kSyntaxError, file.range(3, 3), "empty");
  // At the end of a line (a missing token): the caret goes after the last character.
  diags.error(DiagnosticKind::kSyntaxError, file.range(9, 9), "missing");
  // At the end of a file without a final newline.
  auto size = static_cast<uint32_t>(file.text().size());
  diags.error(DiagnosticKind::kSyntaxError, file.range(size, size), "eof");
  CHECK(diags.render() ==
        "k.py:1:4: error: multi\n"
        "    1 | if (a and\n"
        "      |    ^~~~~~\n"
        "k.py:1:4: error: empty\n"
        "    1 | if (a and\n"
        "      |    ^\n"
        "k.py:1:10: error: missing\n"
        "    1 | if (a and\n"
        "      |          ^\n"
        "k.py:3:7: error: eof\n"
        "    3 |   pass\n"
        "      |       ^\n");
}

TEST_CASE("tabs and UTF-8 keep the caret aligned", "[diagnostics]") {
  SourceFile file("k.py", "\tx=\"\xc3\xa9\"\t+ bad\n");
  DiagnosticEngine diags;
  diags.error(DiagnosticKind::kTypeMismatch, find(file, "bad"), "tab");
  // The first tab expands to 8 columns, the two-byte `\xc3\xa9` takes one, the second tab pads
  // from column 13 to 16. The location still counts bytes, as GCC's does.
  CHECK(diags.render() ==
        "k.py:1:11: error: tab\n"
        "    1 |         x=\"\xc3\xa9\"   + bad\n"
        "      |                   ^~~\n");
}

TEST_CASE("long line numbers widen the gutter; trailing spaces are dropped", "[diagnostics]") {
  std::string text(123455, '\n');
  text += "  x  \n";
  SourceFile file("k.py", text);
  DiagnosticEngine diags;
  diags.error(DiagnosticKind::kSyntaxError, find(file, "x"), "far");
  CHECK(diags.render() ==
        "k.py:123456:3: error: far\n"
        "123456 |   x\n"
        "       |   ^\n");
}

TEST_CASE("warnings carry their flag; -Werror promotes them", "[diagnostics]") {
  SourceFile file("k.py", "z\n");
  SECTION("plain") {
    DiagnosticEngine diags;
    diags.warning(DiagnosticKind::kIgnoredKeyword, file.range(0, 1), "ignored");
    CHECK_FALSE(diags.has_errors());
    CHECK(diags.warning_count() == 1);
    CHECK(diags.render() ==
          "k.py:1:1: warning: ignored [-Wignored-keyword]\n    1 | z\n      | ^\n");
  }
  SECTION("-Werror") {
    DiagnosticEngine diags({.warnings_as_errors = true});
    diags.warning(DiagnosticKind::kIgnoredKeyword, file.range(0, 1), "ignored");
    CHECK(diags.has_errors());
    CHECK(diags.error_count() == 1);
    CHECK(diags.render() ==
          "k.py:1:1: error: ignored [-Werror=ignored-keyword]\n    1 | z\n      | ^\n");
  }
  SECTION("-Wno-<flag> drops the warning; unknown flags are refused") {
    DiagnosticEngine diags({.warnings_as_errors = true});
    CHECK(diags.set_warning_enabled("ignored-keyword", false));
    CHECK_FALSE(diags.set_warning_enabled("no-such-warning", false));
    diags.warning(DiagnosticKind::kIgnoredKeyword, file.range(0, 1), "ignored")
        .note({}, "dropped too");
    CHECK_FALSE(diags.has_errors());
    CHECK(diags.diagnostics().empty());
    CHECK(diags.render().empty());
    CHECK(diags.set_warning_enabled("ignored-keyword", true));
    diags.warning(DiagnosticKind::kIgnoredKeyword, file.range(0, 1), "back");
    CHECK(diags.error_count() == 1);
  }
}

TEST_CASE("diagnostics render in the order recorded, remarks only under -v", "[diagnostics]") {
  SourceFile file("k.py", "a\nb\n");
  auto record = [&](DiagnosticEngine& diags) {
    diags.error(DiagnosticKind::kSyntaxError, file.range(2, 3), "second line first");
    diags.remark(file.range(0, 1), "skipped `helper`");
    diags.error(DiagnosticKind::kSyntaxError, file.range(0, 1), "first line second");
  };
  DiagnosticEngine quiet;
  record(quiet);
  CHECK(quiet.render() ==
        "k.py:2:1: error: second line first\n    2 | b\n      | ^\n"
        "k.py:1:1: error: first line second\n    1 | a\n      | ^\n");
  DiagnosticEngine verbose({.verbose = true});
  record(verbose);
  CHECK(verbose.render() ==
        "k.py:2:1: error: second line first\n    2 | b\n      | ^\n"
        "k.py:1:1: remark: skipped `helper`\n"
        "k.py:1:1: error: first line second\n    1 | a\n      | ^\n");
}

TEST_CASE("JSON output is GCC's: one array with escaped strings", "[diagnostics]") {
  SourceFile file("dir/\"odd\".py", "x = foo(y)\n");
  DiagnosticEngine diags({.format = DiagnosticsFormat::kJson});
  CHECK(diags.render() == "[]\n");
  diags
      .error(DiagnosticKind::kUnknownFunction, find(file, "foo(y)"),
             "unknown `foo`\n\t\\ \x01 \xff")
      .note({}, "no place");
  diags.warning(DiagnosticKind::kIgnoredKeyword, find(file, "x"), "w");
  diags.error(DiagnosticKind::kInputFile, {}, "e");
  const std::string at = R"("file": "dir/\"odd\".py", "line": 1, )";
  CHECK(diags.render() ==
        "[\n"
        R"(  {"kind": "error", "message": "unknown `foo`\n\t\\ \u0001 \ufffd", )"
        R"("children": [{"kind": "note", "message": "no place", "locations": [], )"
        R"("escape-source": false}], "column-origin": 1, "locations": [{"caret": {)" +
            at + R"("display-column": 5, "byte-column": 5, "column": 5}, "finish": {)" + at +
            R"("display-column": 10, "byte-column": 10, "column": 10}}], )"
            R"("escape-source": false, "helionc-kind": "unknown-function"},)"
            "\n"
            R"(  {"kind": "warning", "message": "w", "children": [], "column-origin": 1, )"
            R"("locations": [{"caret": {)" +
            at +
            R"("display-column": 1, "byte-column": 1, "column": 1}}], )"
            R"("escape-source": false, "option": "-Wignored-keyword", )"
            R"("helionc-kind": "ignored-keyword"},)"
            "\n"
            R"(  {"kind": "error", "message": "e", "children": [], "column-origin": 1, )"
            R"("locations": [], "escape-source": false, "helionc-kind": "input-file"})"
            "\n"
            "]\n");
}

TEST_CASE("JSON display columns expand tabs and count UTF-8 characters, as GCC's",
          "[diagnostics]") {
  SourceFile file("t.py", "\t\xc3\xa9 = foo\n");  // a tab, then é (two bytes)
  DiagnosticEngine diags({.format = DiagnosticsFormat::kJson, .warnings_as_errors = true});
  diags.warning(DiagnosticKind::kIgnoredKeyword, find(file, "foo"), "w");
  const std::string json = diags.render();
  CHECK(json.find(R"("caret": {"file": "t.py", "line": 1, "display-column": 13, )"
                  R"("byte-column": 7, "column": 13})") != std::string::npos);
  CHECK(json.find(R"("finish": {"file": "t.py", "line": 1, "display-column": 15, )"
                  R"("byte-column": 9, "column": 15})") != std::string::npos);
  CHECK(json.find(R"("kind": "error")") != std::string::npos);
  CHECK(json.find(R"("option": "-Werror=ignored-keyword")") != std::string::npos);
}

TEST_CASE("kept-alive files outlive their producer", "[diagnostics]") {
  DiagnosticEngine diags;
  {
    auto file = std::make_shared<SourceFile>("c.yaml", "kernel: 1\n");
    diags.error(DiagnosticKind::kConfigSchema, file->range(8, 9), "bad");
    diags.keep_alive(file);
  }
  CHECK(diags.render() == "c.yaml:1:9: error: bad\n    1 | kernel: 1\n      |         ^\n");
}
