// "did you mean": one algorithm for commands, options and keys.
#include "common/util/suggest.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;

TEST_CASE("edit distance counts a swap of neighbours as one edit", "[util]") {
  CHECK(edit_distance("kitten", "sitting") == 3);
  CHECK(edit_distance("", "abc") == 3);
  CHECK(edit_distance("cdua", "cuda") == 1);
  CHECK(edit_distance("CUDA", "cuda") == 0);
  CHECK(edit_distance("ab", "ba") == 1);
}

TEST_CASE("closest_match suggests plausible typos only", "[util]") {
  const std::vector<std::string> commands{"doctor", "explain", "version"};
  CHECK(closest_match("docter", commands) == std::optional<std::string>("doctor"));
  CHECK(closest_match("EXPLIAN", commands) == std::optional<std::string>("explain"));
  CHECK(closest_match("cdua", {"cuda", "python"}) == std::optional<std::string>("cuda"));
  CHECK_FALSE(closest_match("frobnicate", commands).has_value());
}
