#include "common/util/byte_size_text.hpp"

#include <catch2/catch.hpp>

TEST_CASE("sizes print in GiB with one decimal", "[util]") {
  CHECK(tfwsl::format_gib(std::uint64_t{16} << 30) == "16.0 GiB");
  CHECK(tfwsl::format_gib(16318464.0 * 1024) == "15.6 GiB");
  CHECK(tfwsl::format_gib(0.0) == "0.0 GiB");
}

TEST_CASE("sizes print in the smallest binary unit under 1024", "[util]") {
  CHECK(tfwsl::format_bytes(std::uint64_t{17}) == "17 B");
  CHECK(tfwsl::format_bytes(std::uint64_t{1023}) == "1023 B");
  CHECK(tfwsl::format_bytes(std::uint64_t{1536}) == "1.5 KiB");
  CHECK(tfwsl::format_bytes(std::uint64_t{241172480}) == "230.0 MiB");
  CHECK(tfwsl::format_bytes(85.3 * 1024 * 1024) == "85.3 MiB");
  CHECK(tfwsl::format_bytes(std::uint64_t{3} << 40) == "3.0 TiB");
}
