#include <catch2/catch.hpp>

#include "common/util/byte_size_text.hpp"

TEST_CASE("sizes print in GiB with one decimal", "[util]") {
  CHECK(tfwsl::format_gib(std::uint64_t{16} << 30) == "16.0 GiB");
  CHECK(tfwsl::format_gib(16318464.0 * 1024) == "15.6 GiB");
  CHECK(tfwsl::format_gib(0.0) == "0.0 GiB");
}
