// `tfwsl profile validate` lists a file's issues top to bottom, whatever pass of the loader found
// them, and the files of an extends chain in the order they first appear.
#include <catch2/catch.hpp>

#include "win/render/profile_render.hpp"

using namespace tfwsl;

namespace {
ProfileIssue at(const std::string& file, int line, int column, const std::string& message) {
  ProfileIssue i;
  i.where = {file, line, column};
  i.message = message;
  return i;
}
}  // namespace

TEST_CASE("profile issues come in line order within each file") {
  const std::vector<ProfileIssue> found = {at("team.yaml", 8, 3, "a"), at("team.yaml", 12, 1, "b"),
                                           at("base.yaml", 2, 1, "c"), at("team.yaml", 10, 5, "d")};
  const auto sorted = cli::in_line_order(found);
  REQUIRE(sorted.size() == 4);
  CHECK(sorted[0].message == "a");
  CHECK(sorted[1].message == "d");
  CHECK(sorted[2].message == "b");
  CHECK(sorted[3].message == "c");
  const std::string text = cli::issues_text(found);
  CHECK(text.find("team.yaml:10:5") < text.find("team.yaml:12:1"));
  CHECK(cli::issues_json(found)[1]["line"] == 10);
}
