// The engine's safety rules on real files: a source and target that overlap are refused before
// anything is touched (and, independently, nothing is ever renamed into a source folder); a symlink
// in the target where the import needs a folder is reported per file and never followed; the stop
// message after ENOSPC or an I/O error says what is true of the source.
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "linux/dataset/import_engine.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;
using tfwsl::test::read_file;
using tfwsl::test::write_file;

namespace {

struct SafetyDirs {
  tfwsl::test::TempDir tmp;
  fs::path base = fs::canonical(tmp.path());
  tfwsl::SteadyClock clock;

  tfwsl::Result<ImportReport> import(const fs::path& source, const fs::path& target, ImportOptions options = {}) {
    options.source = source;
    options.target = target;
    if (options.jobs == k_default_jobs) options.jobs = 2;
    ProgressTracker progress(clock);
    CancelToken cancel;
    return run_import(options, progress, cancel);
  }
};

// Every regular file and symlink under root (state folder included): path -> content or "->link".
std::map<std::string, std::string> tree_of(const fs::path& root) {
  std::map<std::string, std::string> out;
  if (!fs::exists(root)) return out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    auto rel = fs::relative(it->path(), root).string();
    if (it->is_symlink())
      out[rel] = "->" + fs::read_symlink(it->path()).string();
    else if (it->is_regular_file())
      out[rel] = read_file(it->path());
  }
  return out;
}

std::set<std::string> problem_paths(const ImportReport& report, const std::string& kind) {
  std::set<std::string> out;
  for (const auto& p : report.problems)
    if (p.kind == kind) out.insert(p.path);
  return out;
}

// R/srcD with zz.txt (precious), srcD/zz.txt (5 MiB, its own fsync) and 600 small files: imported
// into R, the engine would rename srcD/zz.txt's copy onto R/srcD/zz.txt, the precious original.
void make_nested_source(const fs::path& root) {
  fs::create_directories(root / "srcD" / "srcD");
  write_file(root / "srcD" / "zz.txt", "ORIGINAL precious");
  std::string big(5 << 20, '\0');
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131 % 251);
  write_file(root / "srcD" / "srcD" / "zz.txt", big);
  for (int i = 0; i < 600; ++i) write_file(root / "srcD" / ("a" + std::to_string(1000 + i)), std::to_string(i));
}

}  // namespace

TEST_CASE("move: a source inside the target is refused before anything is touched", "[engine][overlap]") {
  SafetyDirs d;
  fs::path root = d.base / "R";
  make_nested_source(root);
  auto before = tree_of(root);
  ImportOptions move;
  move.move = true;
  move.jobs = 1;
  auto result = d.import(root / "srcD", root, move);
  REQUIRE_FALSE(result);
  CHECK(result.error().code == tfwsl::ErrorCode::invalid_input);
  CHECK(result.error().message.find("inside") != std::string::npos);
  CHECK(read_file(root / "srcD" / "zz.txt") == "ORIGINAL precious");
  CHECK(tree_of(root) == before);  // not even the state folder was created
}

TEST_CASE("a target folder that is a source folder is never renamed into (source moved in after the checks)",
          "[engine][overlap]") {
  SafetyDirs d;
  fs::path source = d.base / "S", target = d.base / "T";
  fs::create_directories(source / "sub");
  write_file(source / "zz.txt", "ORIGINAL precious");
  write_file(source / "sub" / "zz.txt", "the other zz.txt");
  // After the overlap checks and the folder pass, just before the batch's renames, the source
  // folder itself is renamed to T/sub: renaming sub/zz.txt's copy into T/sub would replace the
  // source's own zz.txt, not yet imported.
  fs::path moved_source = target / "sub";
  std::atomic<bool> moved{false};
  ImportOptions move;
  move.move = true;
  move.jobs = 1;
  move.fault_hook = [&](std::string_view step, const std::string&) {
    if (step == "sync_filesystem" && !moved.exchange(true)) fs::rename(source, moved_source);
    return 0;
  };
  auto result = d.import(source, target, move);
  REQUIRE(moved);
  CHECK(read_file(moved_source / "zz.txt") == "ORIGINAL precious");
  CHECK(read_file(moved_source / "sub" / "zz.txt") == "the other zz.txt");
  REQUIRE_FALSE(result);
  CHECK(result.error().message.find("source") != std::string::npos);
}

TEST_CASE("move: a target reached through a bind mount of the source's parent is refused", "[engine][overlap]") {
  SafetyDirs d;
  fs::path root = d.base / "R", bound = d.base / "B";
  make_nested_source(root);
  fs::create_directories(bound);
  if (::geteuid() != 0 || ::unshare(CLONE_NEWNS) != 0 ||
      ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      ::mount(root.c_str(), bound.c_str(), nullptr, MS_BIND, nullptr) != 0) {
    tfwsl::test::skip(std::string("bind mounts need root and mount(2) here (") + std::strerror(errno) + ")");
  }
  struct Unmount {
    fs::path where;
    ~Unmount() { ::umount2(where.c_str(), MNT_DETACH); }
  } unmount{bound};
  auto before = tree_of(root);
  ImportOptions move;
  move.move = true;
  move.jobs = 1;
  auto result = d.import(root / "srcD", bound, move);  // B is R: the source is inside the target
  REQUIRE_FALSE(result);
  CHECK(result.error().message.find("inside") != std::string::npos);
  CHECK(tree_of(root) == before);
}

TEST_CASE("a symlinked folder in the target is reported per file and never followed", "[engine][symlink]") {
  SafetyDirs d;
  fs::path source = d.base / "src", target = d.base / "tgt", outside = d.base / "outside";
  fs::create_directories(source / "evil" / "deeper");
  fs::create_directories(source / "sub" / "evil2");
  fs::create_directories(source / "dangling");
  fs::create_directories(outside);
  fs::create_directories(target / "sub");
  write_file(source / "evil" / "pwn.txt", "X");
  write_file(source / "evil" / "deeper" / "pwn2.txt", "Y");
  write_file(source / "sub" / "evil2" / "pwn3.txt", "Z");
  write_file(source / "dangling" / "d.txt", "D");
  write_file(source / "ok.txt", "fine");
  write_file(source / "sub" / "ok2.txt", "fine too");
  fs::create_symlink(outside, target / "evil");
  fs::create_symlink(outside, target / "sub" / "evil2");
  fs::create_symlink(target / "nowhere", target / "dangling");
  ImportOptions move;
  move.move = true;
  auto result = d.import(source, target, move);
  REQUIRE(result);
  CHECK(fs::is_empty(outside));
  CHECK(problem_paths(*result, "target-symlink") ==
        std::set<std::string>{"evil/pwn.txt", "evil/deeper/pwn2.txt", "sub/evil2/pwn3.txt", "dangling/d.txt"});
  for (const auto& p : result->problems) {
    INFO(p.path << ": " << p.message);
    CHECK(p.message.find("target path component is a symlink") != std::string::npos);
  }
  CHECK(read_file(target / "ok.txt") == "fine");
  CHECK(read_file(target / "sub" / "ok2.txt") == "fine too");
  CHECK(fs::is_symlink(target / "evil"));
  CHECK(read_file(source / "evil" / "pwn.txt") == "X");  // --move kept what was not imported
  CHECK(read_file(source / "evil" / "deeper" / "pwn2.txt") == "Y");
  CHECK_FALSE(fs::exists(source / "ok.txt"));
}

TEST_CASE("a target folder swapped for a symlink mid-run is never written through", "[engine][symlink]") {
  SafetyDirs d;
  fs::path source = d.base / "src", target = d.base / "tgt", outside = d.base / "outside";
  fs::create_directories(source / "sub");
  fs::create_directories(outside);
  for (int i = 0; i < 5; ++i) write_file(source / "sub" / ("f" + std::to_string(i)), std::string(100 + i, 'f'));
  write_file(source / "top.txt", "top");
  std::atomic<bool> swapped{false};
  ImportOptions move;
  move.move = true;
  move.jobs = 1;
  move.fault_hook = [&](std::string_view step, const std::string&) {
    if (step == "sync_filesystem" && !swapped.exchange(true)) {  // after the folder pass, before the renames
      fs::remove_all(target / "sub");
      fs::create_symlink(outside, target / "sub");
    }
    return 0;
  };
  auto result = d.import(source, target, move);
  REQUIRE(result);  // per-file problems, not an "I/O error, check the disk" stop
  CHECK(swapped);
  CHECK(fs::is_empty(outside));
  CHECK(problem_paths(*result, "target-symlink").size() == 5);
  for (int i = 0; i < 5; ++i) CHECK(fs::exists(source / "sub" / ("f" + std::to_string(i))));
  CHECK(read_file(target / "top.txt") == "top");
}

TEST_CASE("resume with --move never trusts or deletes for a copy reached through a target symlink",
          "[engine][symlink]") {
  SafetyDirs d;
  fs::path source = d.base / "src", target = d.base / "tgt", outside = d.base / "outside";
  fs::create_directories(source / "evil");
  write_file(source / "evil" / "pwn.txt", "X");
  REQUIRE(d.import(source, target));
  // The copied folder replaced by a symlink to an identical copy outside: size, mtime and the
  // manifest all match, but that copy is not in the target.
  fs::create_directories(outside);
  fs::copy_file(target / "evil" / "pwn.txt", outside / "pwn.txt");
  struct stat st {};
  REQUIRE(::stat((source / "evil" / "pwn.txt").c_str(), &st) == 0);
  timespec times[2] = {st.st_atim, st.st_mtim};
  REQUIRE(::utimensat(AT_FDCWD, (outside / "pwn.txt").c_str(), times, 0) == 0);
  fs::remove_all(target / "evil");
  fs::create_symlink(outside, target / "evil");
  ImportOptions move;
  move.move = true;
  auto result = d.import(source, target, move);
  REQUIRE(result);
  CHECK(read_file(source / "evil" / "pwn.txt") == "X");
  CHECK(problem_paths(*result, "target-symlink") == std::set<std::string>{"evil/pwn.txt"});
  CHECK(tree_of(outside) == std::map<std::string, std::string>{{"pwn.txt", "X"}});
}

namespace {

// A source of files a.txt..k.txt (small, one batch) and a stop injected at one of them.
struct StopFixture {
  SafetyDirs d;
  fs::path source = d.base / "src", target = d.base / "tgt";
  StopFixture() {
    fs::create_directories(source);
    for (char c = 'a'; c <= 'k'; ++c) write_file(source / (std::string(1, c) + ".txt"), std::string(50, c));
  }
  std::size_t moved_away() const {
    std::size_t gone = 0;
    for (char c = 'a'; c <= 'k'; ++c) gone += !fs::exists(source / (std::string(1, c) + ".txt"));
    return gone;
  }
};

}  // namespace

TEST_CASE("ENOSPC with --move: the message says how many source files were moved, not 'untouched'",
          "[engine][messages]") {
  StopFixture f;
  ImportOptions move;
  move.move = true;
  move.jobs = 1;
  move.fault_hook = [](std::string_view step, const std::string& path) {
    return step == "write_chunk" && path == "f.txt" ? ENOSPC : 0;
  };
  auto result = f.d.import(f.source, f.target, move);
  REQUIRE_FALSE(result);
  CHECK(result.error().code == tfwsl::ErrorCode::no_space);
  const std::string& message = result.error().message;
  INFO(message);
  std::size_t moved = f.moved_away();
  CHECK(moved == 5);  // a..e: complete before the stop, committed, verified, then moved
  CHECK(message.find("untouched") == std::string::npos);
  CHECK(message.find(std::to_string(moved) + " source file(s) were moved") != std::string::npos);
  CHECK(message.find("verified in the target") != std::string::npos);
  CHECK(message.find("run the same command again") != std::string::npos);
  for (char c = 'a'; c <= 'e'; ++c) CHECK(read_file(f.target / (std::string(1, c) + ".txt")) == std::string(50, c));
}

TEST_CASE("an I/O error with --move: the message counts the moved files, a copy says the source is untouched",
          "[engine][messages]") {
  StopFixture f;
  ImportOptions move;
  move.move = true;
  move.jobs = 1;
  move.fault_hook = [](std::string_view step, const std::string& path) {
    return step == "rename_into_place" && path == "h.txt" ? EIO : 0;
  };
  auto result = f.d.import(f.source, f.target, move);
  REQUIRE_FALSE(result);
  CHECK(result.error().code == tfwsl::ErrorCode::io);
  INFO(result.error().message);
  CHECK(f.moved_away() == 7);  // a..g were renamed before the error, then made durable and moved
  CHECK(result.error().message.find("untouched") == std::string::npos);
  CHECK(result.error().message.find("7 source file(s) were moved") != std::string::npos);

  StopFixture copy;
  ImportOptions plain;
  plain.jobs = 1;
  plain.fault_hook = move.fault_hook;
  auto copied = copy.d.import(copy.source, copy.target, plain);
  REQUIRE_FALSE(copied);
  INFO(copied.error().message);
  CHECK(copied.error().message.find("the source is untouched") != std::string::npos);
  CHECK(copy.moved_away() == 0);
}

TEST_CASE("a symlinked state folder in the target is refused, never written through", "[engine][symlink]") {
  SafetyDirs d;
  fs::path source = d.base / "src", target = d.base / "tgt", outside = d.base / "outside";
  fs::create_directories(source);
  fs::create_directories(target);
  fs::create_directories(outside);
  write_file(source / "a.txt", "alpha");
  fs::create_symlink(outside, target / std::string(k_state_dir_name));
  auto result = d.import(source, target);
  REQUIRE_FALSE(result);
  INFO(result.error().message);
  CHECK(result.error().message.find("is a symlink") != std::string::npos);
  CHECK(fs::is_empty(outside));
  CHECK_FALSE(fs::exists(target / "a.txt"));
}
