#include "common/util/clock_text.hpp"

#include <catch2/catch.hpp>

TEST_CASE("durations print as a clock, hours from an hour on", "[util]") {
  CHECK(tfwsl::format_clock(0) == "0:00");
  CHECK(tfwsl::format_clock(7.4) == "0:07");
  CHECK(tfwsl::format_clock(65) == "1:05");
  CHECK(tfwsl::format_clock(3723) == "1:02:03");
  CHECK(tfwsl::format_clock(-3) == "0:00");
}
