#include "common/util/plural.hpp"

#include <catch2/catch.hpp>

TEST_CASE("a count takes the singular only for one", "[util]") {
  CHECK(tfwsl::plural(0, "file", "files") == "0 files");
  CHECK(tfwsl::plural(1, "file", "files") == "1 file");
  CHECK(tfwsl::plural(2, "category", "categories") == "2 categories");
  CHECK(tfwsl::plural_noun(1, "setting", "settings") == "setting");
  CHECK(tfwsl::plural_noun(17, "setting", "settings") == "settings");
}
