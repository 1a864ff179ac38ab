#include <catch2/catch.hpp>

#include "support/json.h"

using namespace helionc;

TEST_CASE("json_quote escapes and repairs invalid UTF-8", "[json]") {
  CHECK(json_quote("") == "\"\"");
  CHECK(json_quote("a\"b\\c") == R"("a\"b\\c")");
  CHECK(json_quote("\n\r\t\b\f\x1f") == R"("\n\r\t\b\f\u001f")");
  CHECK(json_quote(std::string_view("\0", 1)) == R"("\u0000")");
  CHECK(json_quote("caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80") ==
        "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"");
  CHECK(json_quote("\xff") == R"("\ufffd")");
  CHECK(json_quote("\xc3") == R"("\ufffd")");                      // truncated sequence
  CHECK(json_quote("\xc0\xaf") == R"("\ufffd\ufffd")");            // overlong
  CHECK(json_quote("\xed\xa0\x80") == R"("\ufffd\ufffd\ufffd")");  // surrogate
}
