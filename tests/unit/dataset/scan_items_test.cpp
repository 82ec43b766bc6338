#include "linux/dataset/scan_items.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

using namespace tfwsl::dataset;

namespace {

ScannedItem file_of(std::uint64_t size, mode_t mode = S_IFREG | 0644) {
  ScannedItem item;
  item.size = size;
  item.mode = mode;
  return item;
}

std::vector<std::string> paths_of(const ScanItems& items) {
  std::vector<std::string> paths;
  for (std::size_t i = 0; i < items.size(); ++i) paths.push_back(items.path(i));
  return paths;
}

}  // namespace

TEST_CASE("packed items come back whole: path, kind, size above 4 GiB, mode and the imported flag", "[scan]") {
  ScanItems items;
  auto root = items.add_folder("");
  auto deep = items.add_folder("a/b c");
  items.add(root, "top.txt", file_of(3));
  ScannedItem link = file_of(11, S_IFLNK | 0777);
  link.kind = ItemKind::symlink;
  link.already_imported = true;
  items.add(deep, "link", link);
  items.add(deep, std::string("\xff\n name", 7), file_of((5ull << 32) + 7, S_IFREG | 0755));

  REQUIRE(items.size() == 3);
  ScannedItem top = items.at(0);
  CHECK(top.path == "top.txt");
  CHECK(top.kind == ItemKind::file);
  CHECK(top.size == 3);
  CHECK(top.mode == (S_IFREG | 0644));
  CHECK_FALSE(top.already_imported);
  ScannedItem back = items.at(1);
  CHECK(back.path == "a/b c/link");
  CHECK(back.kind == ItemKind::symlink);
  CHECK(back.already_imported);
  CHECK(items.at(2).path == std::string("a/b c/\xff\n name", 13));
  CHECK(items.at(2).size == (5ull << 32) + 7);
  CHECK(items.at(2).mode == (S_IFREG | 0755));
  CHECK(items.leaf(2) == std::string_view("\xff\n name", 7));
}

TEST_CASE("sorting by path orders whole paths byte by byte, across folders", "[scan]") {
  // '-' (0x2d) and '.' (0x2e) sort before '/' (0x2f): "a-b/c" and "a.txt" come before "a/b", which a
  // sort by folder, then name, would get wrong; 0xff sorts last (bytes compare unsigned).
  ScanItems items;
  auto root = items.add_folder("");
  auto a = items.add_folder("a");
  auto a_dash_b = items.add_folder("a-b");
  auto a_b = items.add_folder("a/b");
  auto high = items.add_folder("\xff");
  items.add(a_b, "z", file_of(1));
  items.add(high, "x", file_of(1));
  items.add(root, "a.txt", file_of(1));
  items.add(a, "b0", file_of(1));
  items.add(a_dash_b, "c", file_of(1));
  items.add(a, "a", file_of(1));
  items.add(root, "a", file_of(1));
  items.add(a, "b", file_of(1));

  std::vector<std::string> expected = paths_of(items);
  std::sort(expected.begin(), expected.end());
  items.sort_by_path();
  CHECK(paths_of(items) == expected);
  CHECK(expected.front() == "a");
  CHECK(expected.back() == "\xff/x");
}

TEST_CASE("large files first, by path within each group", "[scan]") {
  ScanItems items;
  auto root = items.add_folder("");
  auto sub = items.add_folder("sub");
  items.add(sub, "small", file_of(10));
  items.add(root, "z-large", file_of(100));
  items.add(root, "a-small", file_of(99));
  items.add(sub, "large", file_of(1000));
  items.sort_large_first(100);
  CHECK(paths_of(items) == std::vector<std::string>{"sub/large", "z-large", "a-small", "sub/small"});
}

TEST_CASE("names spread over many blocks stay intact, and storage never moves", "[scan]") {
  // 255-byte names, each led by its number: about 4 MiB of names, so several 1 MiB name blocks (a
  // name never spans two: each block's last bytes stay unused).
  auto long_name = [](int i) {
    std::string name(255, static_cast<char>('a' + i % 26));
    return name.replace(0, std::to_string(i).size(), std::to_string(i));
  };
  ScanItems items;
  auto root = items.add_folder("");
  for (int i = 0; i < 16'000; ++i) items.add(root, long_name(i), file_of(static_cast<std::uint64_t>(i)));
  for (int i = 0; i < 16'000; i += 997) {
    CHECK(items.leaf(static_cast<std::size_t>(i)) == long_name(i));
    CHECK(items.file_size(static_cast<std::size_t>(i)) == static_cast<std::uint64_t>(i));
  }
  CHECK_THROWS_AS(items.add(root, std::string(256, 'x'), file_of(1)), std::length_error);
}
