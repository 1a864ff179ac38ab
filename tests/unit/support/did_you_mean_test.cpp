#include <catch2/catch.hpp>

#include <string_view>
#include <vector>

#include "support/did_you_mean.h"

using namespace helionc;

TEST_CASE("did-you-mean takes close names, prefixes, and nothing far", "[did_you_mean]") {
  const std::vector<std::string_view> known = {"block_sizes", "time_us", "budget", "x", "exp"};
  CHECK(closest_name("blok_sizes", known) == "block_sizes");
  CHECK(closest_name("time", known) == "time_us");             // a prefix of at least 3 characters
  CHECK_FALSE(closest_name("exp_scaled", known).has_value());  // another name, not `exp`
  CHECK(closest_name("budgt", known) == "budget");
  CHECK(closest_name("exmp", known) == "exp");
  CHECK_FALSE(closest_name("yy", known).has_value());  // shares nothing with `x`
  CHECK_FALSE(closest_name("frobnicate", known).has_value());
  CHECK_FALSE(closest_name("budget", known).has_value());  // known: nothing to suggest
  CHECK(did_you_mean("budgt", known) == "; did you mean `budget`?");
  CHECK(did_you_mean("zzzz", known).empty());
}
