#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "common/core/clock.hpp"
#include "linux/dataset/tree_scan.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;
using tfwsl::test::write_file;

namespace {

struct ScanFixture {
  tfwsl::test::TempDir tmp;
  fs::path root = tmp.path() / "source";
  tfwsl::SteadyClock clock;
  ProgressTracker progress{clock};
  CancelToken cancel;

  ScanFixture() { fs::create_directories(root); }

  ScanResult scan(ScanOptions options = {}) {
    int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    REQUIRE(fd >= 0);
    ScanResult result = scan_tree(fd, options, cancel, progress);
    ::close(fd);
    return result;
  }
};

}  // namespace

TEST_CASE("the scan finds every file of a wide tree once, sorted, with its size", "[scan]") {
  ScanFixture f;
  // Folders of different sizes, so that the threads take them in turn; with few descriptors
  // allowed, most folders' entries are stat'ed by their path from the root instead.
  ScanOptions options;
  options.max_open_folders = GENERATE(256u, 2u, 0u);
  std::map<std::string, std::uint64_t> expected;
  for (int d = 0; d < 300; ++d) {
    fs::path dir = f.root / ("d" + std::to_string(d)) / "inner";
    fs::create_directories(dir);
    for (int i = 0; i < d % 7; ++i) {
      std::string rel = "d" + std::to_string(d) + "/inner/f" + std::to_string(i);
      write_file(f.root / rel, std::string(static_cast<std::size_t>(d + i), 'x'));
      expected[rel] = static_cast<std::uint64_t>(d + i);
    }
  }
  write_file(f.root / "top.txt", "top");
  expected["top.txt"] = 3;

  ScanResult result = f.scan(options);
  CHECK(result.problems.empty());
  std::map<std::string, std::uint64_t> found;
  for (const auto& item : result.items) {
    CHECK(item.kind == ItemKind::file);
    CHECK(found.emplace(item.path, item.size).second);  // once each
  }
  CHECK(found == expected);
  auto items = result.items.all();
  CHECK(std::is_sorted(items.begin(), items.end(),
                       [](const ScannedItem& a, const ScannedItem& b) { return a.path < b.path; }));
  REQUIRE(result.directories.size() == 600);
  CHECK(std::is_sorted(result.directories.begin(), result.directories.end()));  // parents first
  CHECK(f.progress.snapshot().files_total == expected.size());
}

TEST_CASE("the scan records symlinks without following them and skips only the top state folder", "[scan]") {
  ScanFixture f;
  tfwsl::test::TempDir outside;
  write_file(outside.path() / "secret", "do not scan");
  fs::create_directories(f.root / "sub" / std::string(k_state_dir_name));
  write_file(f.root / "sub" / std::string(k_state_dir_name) / "kept", "a user's own folder of that name");
  fs::create_directories(f.root / std::string(k_state_dir_name));
  write_file(f.root / std::string(k_state_dir_name) / "manifest", "ours");
  fs::create_directory_symlink(outside.path(), f.root / "sub" / "out");
  fs::create_symlink("sub", f.root / "loop");
  REQUIRE(::mkfifo((f.root / "pipe").c_str(), 0600) == 0);

  ScanResult result = f.scan();
  std::map<std::string, ItemKind> found;
  for (const auto& item : result.items) found[item.path] = item.kind;
  CHECK(found == std::map<std::string, ItemKind>{{"loop", ItemKind::symlink},
                                                 {"sub/.tfwsl-import/kept", ItemKind::file},
                                                 {"sub/out", ItemKind::symlink}});
  REQUIRE(result.problems.size() == 1);
  CHECK(result.problems[0].path == "pipe");
  CHECK(result.problems[0].kind == "unsupported");
}

TEST_CASE("the visit hook sees every item on the scan's threads before it is recorded", "[scan]") {
  ScanFixture f;
  for (int i = 0; i < 200; ++i) {
    fs::create_directories(f.root / ("dir" + std::to_string(i % 5)));
    write_file(f.root / ("dir" + std::to_string(i % 5)) / std::to_string(i), "data");
  }
  std::atomic<int> visits{0};
  std::mutex mutex;
  std::set<std::thread::id> threads;
  ScanOptions options;
  options.threads = 8;
  std::atomic<std::int64_t> newest{0};
  options.visit = [&](ScannedItem& item, std::int64_t mtime_ns) {
    ++visits;
    item.already_imported = item.path.back() == '7';
    if (mtime_ns > newest) newest = mtime_ns;
    std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
    return item.path.back() != '3';  // false: left out of the result, still counted as found
  };
  ScanResult result = f.scan(options);
  REQUIRE(result.items.size() == 180);
  CHECK(visits == 200);
  CHECK(f.progress.snapshot().files_total == 200);
  CHECK(threads.count(std::this_thread::get_id()) == 0);
  CHECK(newest > 0);
  for (const auto& item : result.items) {
    CHECK(item.already_imported == (item.path.back() == '7'));
    CHECK(item.path.back() != '3');
  }
}

TEST_CASE("a cancelled scan stops early", "[scan]") {
  ScanFixture f;
  for (int i = 0; i < 50; ++i) {
    fs::create_directories(f.root / ("d" + std::to_string(i)));
    write_file(f.root / ("d" + std::to_string(i)) / "f", "x");
  }
  f.cancel.cancel();
  ScanResult result = f.scan();
  CHECK(result.items.empty());
}

TEST_CASE("excluded names are left out at any depth - folders not entered, files and symlinks skipped", "[scan]") {
  ScanFixture f;
  for (const char* folder : {".venv/lib", "src/__pycache__", "docs", ".Git"}) fs::create_directories(f.root / folder);
  write_file(f.root / ".venv" / "lib" / "x.py", "venv");
  write_file(f.root / "src" / "__pycache__" / "a.pyc", "compiled");
  write_file(f.root / "src" / "main.py", "main");
  write_file(f.root / "docs" / "__pycache__", "a file of an excluded name");
  write_file(f.root / "docs" / "x.venv", "a suffix only");
  write_file(f.root / ".Git" / "config", "case-sensitive");
  fs::create_symlink("../.venv", f.root / "src" / ".venv");
  ScanOptions options;
  options.exclude = {".venv", "__pycache__", ".git"};

  ScanResult result = f.scan(options);
  std::set<std::string> found;
  for (const auto& item : result.items) found.insert(item.path);
  CHECK(found == std::set<std::string>{".Git/config", "docs/x.venv", "src/main.py"});
  CHECK(std::set<std::string>(result.directories.begin(), result.directories.end()) ==
        std::set<std::string>{".Git", "docs", "src"});
  CHECK(f.progress.snapshot().files_total == 3);
  CHECK(result.problems.empty());
}
