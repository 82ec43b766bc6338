#include "linux/dataset/manifest.hpp"

#include <catch2/catch.hpp>

#include "common/util/content_hash.hpp"

using namespace tfwsl::dataset;

namespace {
ManifestEntry entry(std::string path, std::uint64_t size = 10, std::int64_t mtime = 1700000000123456789) {
  return ManifestEntry{std::move(path), size, mtime, tfwsl::content_hash("x" + std::to_string(size))};
}
}  // namespace

TEST_CASE("manifest paths escape every byte outside printable ASCII and round-trip", "[manifest]") {
  std::string all;
  for (int c = 1; c < 256; ++c) all.push_back(static_cast<char>(c));
  std::string escaped = escape_path(all);
  for (char c : escaped) CHECK((c > 0x20 && c < 0x7f));
  CHECK(escaped.find(' ') == std::string::npos);
  auto back = unescape_path(escaped);
  REQUIRE(back);
  CHECK(*back == all);
  CHECK(escape_path("new\nline") == "new%0Aline");
  CHECK(escape_path("50%") == "50%25");
  CHECK_FALSE(unescape_path("bad%4"));
  CHECK_FALSE(unescape_path("bad%zz"));
}

TEST_CASE("a manifest parses back what was written, later records winning", "[manifest]") {
  std::string text = manifest_header_line() + format_manifest_line(entry("a b/c\n\xff", 3)) +
                     format_manifest_line(entry("d", 4)) + format_manifest_line(entry("d", 5));
  auto parsed = parse_manifest(text, "m");
  REQUIRE(parsed);
  REQUIRE(parsed->size() == 2);
  CHECK(parsed->at("a b/c\n\xff") == entry("a b/c\n\xff", 3));
  CHECK(parsed->at("d").size == 5);
  std::string written = manifest_header_line();
  for (const auto& [path, record] : *parsed) written += format_manifest_line(record);
  auto again = parse_manifest(written, "m");
  REQUIRE(again);
  CHECK(*again == *parsed);
}

TEST_CASE("a record cut short by a crash is ignored, damage elsewhere is refused", "[manifest]") {
  std::string good = manifest_header_line() + format_manifest_line(entry("one"));
  std::string cut = format_manifest_line(entry("two"));
  cut.pop_back();  // no newline: the write was cut short
  auto parsed = parse_manifest(good + cut.substr(0, 20), "m");
  REQUIRE(parsed);
  CHECK(parsed->size() == 1);

  std::string damaged = good + format_manifest_line(entry("two"));
  damaged[manifest_header_line().size() + 3] ^= 0x01;  // a flipped bit in the first record's hash
  auto refused = parse_manifest(damaged, "T/.tfwsl-import/manifest");
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("T/.tfwsl-import/manifest") != std::string::npos);
  CHECK(refused.error().message.find("line 2") != std::string::npos);

  CHECK_FALSE(parse_manifest("something else\n", "m"));
  CHECK(parse_manifest("tfwsl-imp", "m"));  // a header cut short: an empty manifest
  CHECK_FALSE(parse_manifest("garbage", "m"));
  CHECK(parse_manifest("", "m")->empty());
}
