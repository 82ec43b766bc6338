#include "common/units/size_parser.hpp"

#include <catch2/catch.hpp>

using namespace tfwsl;

// The accepted forms are wsl.exe's own unit test cases (microsoft/WSL ParseMemorySize_LegacyForms).
TEST_CASE("wsl sizes: the forms wsl.exe accepts", "[units]") {
  CHECK(parse_wsl_size("0").value() == 0);
  CHECK(parse_wsl_size("1").value() == 1);
  CHECK(parse_wsl_size(" 1").value() == 1);
  CHECK(parse_wsl_size("1B").value() == 1);
  CHECK(parse_wsl_size("1K").value() == 1024);
  CHECK(parse_wsl_size("1KB").value() == 1024);
  CHECK(parse_wsl_size("2M").value() == 2ULL * 1024 * 1024);
  CHECK(parse_wsl_size("100MB").value() == 100ULL * 1024 * 1024);
  CHECK(parse_wsl_size("9G").value() == 9ULL << 30);
  CHECK(parse_wsl_size("44GB").value() == 44ULL << 30);
  CHECK(parse_wsl_size("16GB").value() == 17179869184ULL);
  CHECK(parse_wsl_size("1TB").value() == 1ULL << 40);
  CHECK(parse_wsl_size("2T").value() == 2ULL << 40);
  CHECK(parse_wsl_size("18446744073709551615").value() == 18446744073709551615ULL);
}

TEST_CASE("wsl sizes: the forms wsl.exe rejects get an error naming the value and the fix", "[units]") {
  for (const char* bad : {"", "foo", "1 B", "16 GB", "16gb", "16Gb", "1.5GB", "-1", "+1", "16GiB", "16GBs",
                          "18446744073709551616", "17179869184GB", "16777216TB", "GB", "1GB "}) {
    INFO(bad);
    auto r = parse_wsl_size(bad);
    REQUIRE_FALSE(r);
    CHECK(r.error().code == ErrorCode::invalid_input);
    CHECK(r.error().message.find(std::string("'") + bad + "'") != std::string::npos);
    CHECK(r.error().message.find("16GB") != std::string::npos);
  }
  CHECK(parse_wsl_size("16gb").error().message.find("upper-case unit 'GB'") != std::string::npos);
  CHECK(parse_wsl_size("16 GB").error().message.find("space") != std::string::npos);
  CHECK(parse_wsl_size("1.5GB").error().message.find("whole numbers") != std::string::npos);
}

TEST_CASE("wsl sizes: formatting is exact and round-trips", "[units]") {
  CHECK(format_wsl_size(0) == "0B");
  CHECK(format_wsl_size(17179869184ULL) == "16GB");
  CHECK(format_wsl_size(3072) == "3KB");
  CHECK(format_wsl_size(1000) == "1000B");
  CHECK(format_wsl_size(1ULL << 40) == "1TB");
  CHECK(format_wsl_size(1536ULL << 20) == "1536MB");
  for (std::uint64_t v :
       {0ULL, 1ULL, 1023ULL, 1024ULL, 5ULL << 30, (5ULL << 30) + 1, 3ULL << 40, 18446744073709551615ULL}) {
    INFO(v);
    CHECK(parse_wsl_size(format_wsl_size(v)).value() == v);
  }
}
