#include "common/core/error.hpp"

#include <catch2/catch.hpp>

#include "common/util/suggest.hpp"

using namespace tfwsl;

namespace {
Result<int> parse_positive(int v) {
  if (v <= 0) return make_error(ErrorCode::invalid_input, "expected a positive number, got " + std::to_string(v));
  return v;
}
Result<int> doubled(int v) {
  TFWSL_TRY(x, parse_positive(v));
  return x * 2;
}
}  // namespace

TEST_CASE("errors carry a message, detail and the context they travelled through", "[error]") {
  auto r = with_context(with_context(doubled(-1), "reading memory from .wslconfig"), "tfwsl wslconfig set");
  REQUIRE_FALSE(r);
  CHECK(r.error().code == ErrorCode::invalid_input);
  CHECK(r.error().describe() ==
        "tfwsl wslconfig set: reading memory from .wslconfig: expected a positive number, got -1");
  CHECK(std::string(to_string(r.error().code)) == "invalid_input");
}

TEST_CASE("values pass through with_context and TFWSL_TRY untouched", "[error]") {
  auto r = with_context(doubled(21), "ignored");
  REQUIRE(r);
  CHECK(*r == 42);
}

TEST_CASE("did-you-mean finds plausible typos only", "[suggest]") {
  std::vector<std::string> commands{"doctor", "explain", "migrate", "provision", "wslconfig"};
  CHECK(closest_match("docter", commands) == std::optional<std::string>("doctor"));
  CHECK(closest_match("EXPLIAN", commands) == std::optional<std::string>("explain"));
  CHECK_FALSE(closest_match("frobnicate", commands).has_value());
}
