#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <map>

#include "linux/dataset/import_engine.hpp"
#include "linux/dataset/manifest.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;
using tfwsl::test::read_file;
using tfwsl::test::write_file;

namespace {

struct Fixture {
  tfwsl::test::TempDir tmp;
  fs::path source = tmp.path() / "source";
  fs::path target = tmp.path() / "target";
  tfwsl::SteadyClock clock;

  Fixture() {
    fs::create_directories(source / "sub" / "deeper");
    write_file(source / "a.txt", "alpha");
    write_file(source / "b.txt", "bravo");
    write_file(source / "sub" / "c.bin", std::string(100000, 'c'));
    write_file(source / "sub" / "deeper" / "d.txt", "delta");
    std::string big(6 << 20, '\0');  // over the own-fsync threshold
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 7 % 251);
    write_file(source / "sub" / "big.bin", big);
    fs::create_symlink("a.txt", source / "link");
    fs::create_symlink("/etc/hostname", source / "sub" / "outside");
    chmod((source / "b.txt").c_str(), 0700);
  }

  tfwsl::Result<ImportReport> import(ImportOptions options = {}) {
    options.source = source;
    options.target = target;
    if (options.jobs == k_default_jobs) options.jobs = 4;
    ProgressTracker progress(clock);
    CancelToken cancel;
    return run_import(options, progress, cancel);
  }
};

// path -> content (files) or "->target" (symlinks), outside the state folder.
std::map<std::string, std::string> contents(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    auto rel = fs::relative(it->path(), root).string();
    if (rel == std::string(k_state_dir_name)) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_symlink())
      out[rel] = "->" + fs::read_symlink(it->path()).string();
    else if (it->is_regular_file())
      out[rel] = read_file(it->path());
  }
  return out;
}

std::int64_t mtime_ns(const fs::path& p) {
  struct stat st {};
  REQUIRE(lstat(p.c_str(), &st) == 0);
  return st.st_mtim.tv_sec * 1'000'000'000LL + st.st_mtim.tv_nsec;
}

mode_t mode_of(const fs::path& p) {
  struct stat st {};
  REQUIRE(lstat(p.c_str(), &st) == 0);
  return st.st_mode & 07777;
}

fs::path staging(const fs::path& target) { return target / std::string(k_state_dir_name) / "staging"; }

}  // namespace

TEST_CASE("import copies files, symlinks and mtimes byte-exact with explicit modes", "[engine]") {
  Fixture f;
  auto before = contents(f.source);
  auto report = f.import();
  REQUIRE(report);
  CHECK(report->totals.files_copied == 7);
  CHECK(report->problems.empty());
  CHECK(contents(f.target) == before);
  CHECK(contents(f.source) == before);
  CHECK(mtime_ns(f.target / "sub" / "big.bin") == mtime_ns(f.source / "sub" / "big.bin"));
  CHECK(mtime_ns(f.target / "link") == mtime_ns(f.source / "link"));
  CHECK(mode_of(f.target / "a.txt") == 0644);
  CHECK(mode_of(f.target / "b.txt") == 0755);
  CHECK(fs::is_symlink(f.target / "sub" / "outside"));
  CHECK(fs::is_empty(staging(f.target)));
}

TEST_CASE("a second run skips what is there, --verify finds and recopies a damaged copy", "[engine]") {
  Fixture f;
  REQUIRE(f.import());
  auto again = f.import();
  REQUIRE(again);
  CHECK(again->totals.files_skipped == 7);
  CHECK(again->totals.files_copied == 0);

  // Flip one byte in the copy, keeping its size and mtime: only --verify can see it.
  auto damaged = f.target / "sub" / "c.bin";
  auto mtime = mtime_ns(damaged);
  std::string bytes = read_file(damaged);
  bytes[500] = 'X';
  write_file(damaged, bytes);
  timespec times[2] = {{0, UTIME_OMIT}, {mtime / 1'000'000'000, mtime % 1'000'000'000}};
  REQUIRE(utimensat(AT_FDCWD, damaged.c_str(), times, 0) == 0);
  auto plain = f.import();
  REQUIRE(plain);
  CHECK(plain->totals.files_skipped == 7);
  CHECK(read_file(damaged) == bytes);

  ImportOptions verify;
  verify.verify = true;
  auto verified = f.import(verify);
  REQUIRE(verified);
  CHECK(verified->totals.files_copied == 1);
  CHECK(read_file(damaged) == read_file(f.source / "sub" / "c.bin"));
}

TEST_CASE("a source file changed since the last run is copied again", "[engine]") {
  Fixture f;
  REQUIRE(f.import());
  write_file(f.source / "a.txt", "alpha, longer now");
  auto again = f.import();
  REQUIRE(again);
  CHECK(again->totals.files_copied == 1);
  CHECK(read_file(f.target / "a.txt") == "alpha, longer now");
}

TEST_CASE("a record replaced by a later run is compacted away, and a no-op re-run leaves the manifest as it is",
          "[engine]") {
  Fixture f;
  REQUIRE(f.import());
  const fs::path manifest = f.target / std::string(k_state_dir_name) / "manifest";
  const std::string first = read_file(manifest);
  write_file(f.source / "a.txt", "alpha, longer now");
  REQUIRE(f.import());
  const std::string compacted = read_file(manifest);
  CHECK(std::count(compacted.begin(), compacted.end(), '\n') == std::count(first.begin(), first.end(), '\n'));
  auto records = parse_manifest(compacted, manifest.string());
  REQUIRE(records);
  CHECK(records->at("a.txt").size == std::string("alpha, longer now").size());
  CHECK(records->at("b.txt") == parse_manifest(first, manifest.string())->at("b.txt"));
  REQUIRE(f.import());
  CHECK(read_file(manifest) == compacted);
}

TEST_CASE("move (--move) deletes sources only after a verified copy and removes emptied folders", "[engine]") {
  Fixture f;
  auto before = contents(f.source);
  ImportOptions move;
  move.move = true;
  auto report = f.import(move);
  REQUIRE(report);
  CHECK(report->totals.files_moved == 7);
  CHECK(contents(f.target) == before);
  CHECK(fs::is_empty(f.source));
  CHECK(fs::exists(f.source));  // the root itself is kept
}

TEST_CASE("move (--move) keeps a source that changed after it was copied, and reports it", "[engine]") {
  Fixture f;
  ImportOptions move;
  move.move = true;
  move.jobs = 1;
  move.fault_hook = [&](std::string_view step, const std::string& path) {
    if (step == "rename_into_place" && path == "a.txt") write_file(f.source / "a.txt", "changed after the copy");
    return 0;
  };
  auto report = f.import(move);
  REQUIRE(report);
  REQUIRE(report->problems.size() == 1);
  CHECK(report->problems[0].path == "a.txt");
  CHECK(report->problems[0].kind == "kept-changed");
  CHECK(read_file(f.source / "a.txt") == "changed after the copy");
  CHECK(read_file(f.target / "a.txt") == "alpha");
  CHECK_FALSE(fs::exists(f.source / "b.txt"));
}

TEST_CASE("a failed fsync is never retried on the same descriptor: the file is copied again", "[engine]") {
  Fixture f;
  std::atomic<int> fsync_calls{0}, syncfs_calls{0};
  ImportOptions options;
  options.fault_hook = [&](std::string_view step, const std::string&) {
    if (step == "fsync_file" && fsync_calls++ == 0) return EIO;
    if (step == "sync_filesystem" && syncfs_calls++ == 0) return EIO;
    return 0;
  };
  auto before = contents(f.source);
  auto report = f.import(options);
  REQUIRE(report);
  CHECK(fsync_calls == 2);   // big.bin: failed, then a fresh copy with a fresh descriptor (kept when syncfs fails)
  CHECK(syncfs_calls >= 2);  // the small files' batch: thrown away, copied again
  CHECK(contents(f.target) == before);
  CHECK(fs::is_empty(staging(f.target)));
}

TEST_CASE("ENOSPC stops the job cleanly and a re-run resumes", "[engine]") {
  Fixture f;
  ImportOptions options;
  options.jobs = 1;
  options.fault_hook = [](std::string_view step, const std::string& path) {
    return step == "write_chunk" && path == "sub/c.bin" ? ENOSPC : 0;
  };
  auto before = contents(f.source);
  auto failed = f.import(options);
  REQUIRE_FALSE(failed);
  CHECK(failed.error().code == tfwsl::ErrorCode::no_space);
  CHECK(failed.error().message.find("sub/c.bin") != std::string::npos);
  CHECK(fs::is_empty(staging(f.target)));
  for (const auto& [path, content] : contents(f.target)) CHECK(before.at(path) == content);
  CHECK(contents(f.source) == before);

  auto resumed = f.import();
  REQUIRE(resumed);
  CHECK(resumed->totals.files_skipped + resumed->totals.files_copied == 7);
  CHECK(contents(f.target) == before);
}

TEST_CASE("a file that vanishes after the scan is reported and the job goes on", "[engine]") {
  Fixture f;
  ImportOptions options;
  options.jobs = 1;  // one worker: big.bin first, then paths in order
  options.fault_hook = [&](std::string_view step, const std::string& path) {
    if (step == "write_chunk" && path == "sub/big.bin") fs::remove(f.source / "b.txt");
    return 0;
  };
  auto report = f.import(options);
  REQUIRE(report);
  REQUIRE(report->problems.size() == 1);
  CHECK(report->problems[0].kind == "vanished");
  CHECK(report->problems[0].path == "b.txt");
  CHECK(report->totals.files_copied == 6);
}

TEST_CASE("temporary files left by a crash are discarded, never renamed into place", "[engine]") {
  Fixture f;
  REQUIRE(f.import());
  write_file(staging(f.target) / "17.tmp", "half a file");
  write_file(f.source / "new.txt", "new");
  auto report = f.import();
  REQUIRE(report);
  CHECK(fs::is_empty(staging(f.target)));
  CHECK(read_file(f.target / "new.txt") == "new");
}

TEST_CASE("a second import into the same target is a conflict", "[engine]") {
  Fixture f;
  ImportOptions options;
  std::atomic<bool> tried{false};
  tfwsl::Result<ImportReport> second = tfwsl::make_error(tfwsl::ErrorCode::internal, "not run");
  options.jobs = 1;
  options.fault_hook = [&](std::string_view step, const std::string& path) {
    if (step == "write_chunk" && path != "sub/big.bin" && !tried.exchange(true)) {
      ImportOptions inner;
      inner.source = f.source;
      inner.target = f.target;
      ProgressTracker progress(f.clock);
      CancelToken cancel;
      second = run_import(inner, progress, cancel);
    }
    return 0;
  };
  REQUIRE(f.import(options));
  REQUIRE_FALSE(second);
  CHECK(second.error().code == tfwsl::ErrorCode::conflict);
}

TEST_CASE("cancelling stops the job with finished files intact", "[engine]") {
  Fixture f;
  ImportOptions options;
  options.source = f.source;
  options.target = f.target;
  options.jobs = 1;
  ProgressTracker progress(f.clock);
  CancelToken cancel;
  options.fault_hook = [&](std::string_view step, const std::string& path) {
    if (step == "write_chunk" && path != "sub/big.bin") cancel.cancel();  // a small file, after big.bin
    return 0;
  };
  auto result = run_import(options, progress, cancel);
  REQUIRE_FALSE(result);
  CHECK(result.error().code == tfwsl::ErrorCode::cancelled);
  CHECK(fs::is_empty(staging(f.target)));
}
