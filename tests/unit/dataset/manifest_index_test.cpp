#include "linux/dataset/manifest_index.hpp"

#include <catch2/catch.hpp>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "linux/dataset/manifest.hpp"

using namespace tfwsl::dataset;

namespace {

ManifestEntry record(std::string path, std::uint64_t size, std::int64_t mtime, char hash_digit = 'a') {
  return ManifestEntry{std::move(path), size, mtime, std::string(16, hash_digit) + std::string(16, '0')};
}

}  // namespace

TEST_CASE("the index answers for the latest record of each path", "[manifest]") {
  for (bool keep : {false, true}) {
    ManifestIndex index(keep);
    index.reserve(3);
    index.add(record("a/b.txt", 5, 100, 'a'));
    index.add(record("c", 1, 1));
    index.add(record("a/b.txt", 6, 200, 'b'));  // the file changed and was copied again
    index.finish();

    CHECK(index.size() == 2);
    CHECK(index.contains("a/b.txt"));
    CHECK(index.contains("c"));
    CHECK_FALSE(index.contains("a"));
    CHECK(index.matches("a/b.txt", 6, 200));
    CHECK_FALSE(index.matches("a/b.txt", 5, 100));  // replaced
    CHECK_FALSE(index.matches("a/b.txt", 6, 201));
    CHECK_FALSE(index.matches("a/b.txt", 7, 200));
    CHECK_FALSE(index.matches("x", 1, 1));
    if (keep) {
      auto found = index.lookup("a/b.txt");
      REQUIRE(found);
      CHECK(*found == record("a/b.txt", 6, 200, 'b'));
    } else {
      CHECK_FALSE(index.lookup("a/b.txt"));
    }
  }
}

TEST_CASE("the index agrees with a map of whole records over many paths and replacements", "[manifest]") {
  std::mt19937_64 random(42);
  std::map<std::string, ManifestEntry> expected;
  ManifestIndex index(true);
  for (int i = 0; i < 20'000; ++i) {
    std::string path = "d" + std::to_string(random() % 50) + "/f" + std::to_string(random() % 8'000);
    ManifestEntry entry =
        record(path, random() % 1000, static_cast<std::int64_t>(random() % 1000), "0123456789abcdef"[random() % 16]);
    expected[path] = entry;
    index.add(entry);
  }
  index.finish();
  REQUIRE(index.size() == expected.size());
  for (const auto& [path, entry] : expected) {
    CHECK(index.matches(path, entry.size, entry.mtime_ns));
    CHECK(index.lookup(path) == entry);
  }
}

TEST_CASE("the manifest reader gives the same records whatever the pieces it is fed", "[manifest]") {
  std::string text = manifest_header_line() + format_manifest_line(record("one", 1, 2)) +
                     format_manifest_line(record("two\nlines", 3, 4)) + format_manifest_line(record("one", 5, 6));
  auto whole = parse_manifest(text, "m");
  REQUIRE(whole);
  for (std::size_t piece : {1u, 7u, 64u}) {
    std::map<std::string, ManifestEntry> found;
    std::vector<std::string> lines;
    ManifestReader reader("m", [&](const ManifestEntry& entry, std::string_view line) {
      found[entry.path] = entry;
      lines.emplace_back(line);
    });
    for (std::size_t at = 0; at < text.size(); at += piece)
      REQUIRE(reader.feed(std::string_view(text).substr(at, piece)));
    auto clean = reader.finish();
    REQUIRE(clean);
    CHECK(*clean);
    CHECK(found.size() == whole->size());
    CHECK(found.at("one") == whole->at("one"));
    REQUIRE(lines.size() == 3);
    CHECK(lines[1] + '\n' == format_manifest_line(record("two\nlines", 3, 4)));
  }
}

TEST_CASE("the manifest reader ignores a last line cut short and names the line it cannot read", "[manifest]") {
  std::string good = manifest_header_line() + format_manifest_line(record("one", 1, 2));
  int records = 0;
  ManifestReader cut("m", [&](const ManifestEntry&, std::string_view) { ++records; });
  REQUIRE(cut.feed(good + format_manifest_line(record("two", 1, 2)).substr(0, 30)));
  auto clean = cut.finish();
  REQUIRE(clean);
  CHECK_FALSE(*clean);
  CHECK(records == 1);

  std::string damaged = format_manifest_line(record("two", 1, 2));
  damaged[3] = 'z';
  ManifestReader bad("T/.tfwsl-import/manifest", [](const ManifestEntry&, std::string_view) {});
  auto refused = bad.feed(good + damaged);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("T/.tfwsl-import/manifest is damaged at line 3") != std::string::npos);
}
