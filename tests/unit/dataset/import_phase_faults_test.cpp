// A fault injected at each phase of an import through the engine's filesystem port (a fake that
// fails chosen calls, faulting_import_files.hpp): ENOSPC on a write and in copy_file_range, and EIO
// on a large file's fsync, in copy; EIO on the batch's syncfs, on a folder's fsync and on the
// manifest's sync in commit; a failed rename and a failed unlink of a source in move. Each with
// --move (the strictest: sources are deleted), and for each: no file is lost (every source file is
// still there, unchanged, or its copy in the target is), nothing is written outside the target,
// the job names the path and the fix, and a rerun without the fault completes the import.
#include <catch2/catch.hpp>
#include <cerrno>
#include <filesystem>
#include <map>
#include <string>

#include "linux/dataset/import_engine.hpp"
#include "tests/support/test_environment.hpp"
#include "tests/unit/dataset/faulting_import_files.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;
using tfwsl::test::FaultingImportFiles;
using tfwsl::test::read_file;
using tfwsl::test::write_file;

namespace {

// Every regular file under root, outside the import's state folder: path -> content.
std::map<std::string, std::string> files_under(const fs::path& root) {
  std::map<std::string, std::string> out;
  if (!fs::exists(root)) return out;
  for (auto it = fs::recursive_directory_iterator(root); it != fs::recursive_directory_iterator(); ++it) {
    auto rel = fs::relative(it->path(), root).string();
    if (rel.rfind(std::string(k_state_dir_name), 0) == 0) continue;
    if (it->is_regular_file()) out[rel] = read_file(it->path());
  }
  return out;
}

// base/S (the source: small files in folders and one of 5 MiB, which has its own fsync),
// base/T (the target), base/outside (a neighbour that nothing may touch).
struct PhaseSandbox {
  tfwsl::test::TempDir tmp;
  fs::path base = fs::canonical(tmp.path());
  fs::path source = base / "S", target = base / "T", outside = base / "outside";
  std::map<std::string, std::string> originals;
  FaultingImportFiles files{source, target};
  tfwsl::SteadyClock clock;

  PhaseSandbox() {
    fs::create_directories(source / "sub" / "deep");
    fs::create_directories(outside);
    write_file(outside / "neighbour.txt", "not part of the import");
    write_file(source / "a.txt", "alpha");
    write_file(source / "sub" / "b.bin", std::string(64 << 10, 'b'));
    write_file(source / "sub" / "deep" / "c.txt", "gamma");
    for (int i = 0; i < 20; ++i) write_file(source / "sub" / ("n" + std::to_string(i)), std::to_string(i * i));
    std::string big(5 << 20, '\0');
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<char>(i * 131 % 251);
    write_file(source / "big.bin", big);
    originals = files_under(source);
  }

  void add_source_file(const std::string& path, std::string content) {
    write_file(source / path, content);
    originals[path] = std::move(content);
  }

  tfwsl::Result<ImportReport> import_moving() {
    ImportOptions options;
    options.source = source;
    options.target = target;
    options.move = true;
    options.jobs = 2;
    options.files = &files;
    ProgressTracker progress(clock);
    CancelToken cancel;
    return run_import(options, progress, cancel);
  }

  // No file lost: each original is in the source unchanged or, moved, in the target. Nothing new
  // appears in the source or next to it, and the port was never pointed outside the target.
  void check_nothing_lost_or_strayed() {
    auto in_source = files_under(source), in_target = files_under(target);
    for (const auto& [path, content] : originals) {
      INFO(path);
      auto kept = in_source.find(path);
      if (kept != in_source.end()) {
        CHECK(kept->second == content);
      } else {
        REQUIRE(in_target.count(path) == 1);
        CHECK(in_target.at(path) == content);
      }
    }
    for (const auto& [path, content] : in_source) CHECK(originals.count(path) == 1);
    for (const auto& [path, content] : in_target) CHECK(originals.count(path) == 1);
    CHECK(files_under(outside) == std::map<std::string, std::string>{{"neighbour.txt", "not part of the import"}});
    CHECK(files.touched_outside().empty());
  }

  // The fault cleared, the same import completes: everything in the target, the source emptied.
  void check_rerun_completes() {
    files.clear();
    auto again = import_moving();
    REQUIRE(again);
    CHECK(again->problems.empty());
    CHECK(files_under(target) == originals);
    CHECK(files_under(source).empty());
    CHECK(files.touched_outside().empty());
  }
};

bool message_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A stop: the error names what was being done where, and that the same command continues.
void check_stop(const tfwsl::Result<ImportReport>& result, tfwsl::ErrorCode code, const std::string& names) {
  REQUIRE_FALSE(result);
  INFO(result.error().message);
  CHECK(result.error().code == code);
  CHECK(message_has(result.error().message, names));
  CHECK(message_has(result.error().message, "run the same command again: it continues where this one stopped"));
}

}  // namespace

TEST_CASE("copy: ENOSPC writing a file stops the job, names the file and the fix - a rerun completes",
          "[engine][port][copy]") {
  PhaseSandbox d;
  d.files.fail("write_chunk", ENOSPC, "sub/b.bin");
  auto result = d.import_moving();
  CHECK(d.files.faults_injected() >= 1);
  check_stop(result, tfwsl::ErrorCode::no_space, "writing 'sub/b.bin'");
  CHECK(message_has(result.error().message, "Free some space"));
  CHECK(d.originals.count("sub/b.bin") == 1);
  CHECK(read_file(d.source / "sub" / "b.bin") == d.originals.at("sub/b.bin"));
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}

TEST_CASE("copy: ENOSPC in copy_file_range of a very large file stops the job naming it - a rerun completes",
          "[engine][port][copy]") {
  PhaseSandbox d;
  d.add_source_file("sub/huge.bin", std::string(9 << 20, 'h'));  // past the copy_file_range threshold
  d.files.fail("copy_range", ENOSPC, "sub/huge.bin");
  auto result = d.import_moving();
  CHECK(d.files.faults_injected() == 1);
  check_stop(result, tfwsl::ErrorCode::no_space, "copying 'sub/huge.bin'");
  CHECK(read_file(d.source / "sub" / "huge.bin") == d.originals.at("sub/huge.bin"));
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}

TEST_CASE("copy: EIO on a large file's own fsync, every attempt, stops the job naming it", "[engine][port][copy]") {
  PhaseSandbox d;
  d.files.fail("fsync_file", EIO, "big.bin");
  auto result = d.import_moving();
  CHECK(d.files.faults_injected() == 3);  // the file is copied afresh each time, never fsynced twice
  check_stop(result, tfwsl::ErrorCode::io, "making the copy durable 'big.bin'");
  CHECK(message_has(result.error().message, "Check the disk"));
  CHECK(fs::exists(d.source / "big.bin"));
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}

TEST_CASE("copy: one failed fsync of a large file is survived by copying it afresh", "[engine][port][copy]") {
  PhaseSandbox d;
  d.files.fail("fsync_file", EIO, "big.bin", 1);
  auto result = d.import_moving();
  REQUIRE(result);
  CHECK(d.files.faults_injected() == 1);
  CHECK(files_under(d.target) == d.originals);
  CHECK(files_under(d.source).empty());
  d.check_nothing_lost_or_strayed();
}

TEST_CASE("commit: EIO on the batch's syncfs, every attempt, stops the job before any small file is visible",
          "[engine][port][commit]") {
  PhaseSandbox d;
  d.files.fail("sync_filesystem", EIO);
  auto result = d.import_moving();
  check_stop(result, tfwsl::ErrorCode::io, "making the copy durable '");
  for (const auto& [path, content] : d.originals)
    if (path != "big.bin") CHECK(d.originals.at(path) == read_file(d.source / path));
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}

TEST_CASE("commit: EIO on a target folder's fsync stops the job naming the folder - no source is deleted",
          "[engine][port][commit]") {
  PhaseSandbox d;
  d.files.fail("fsync_folder", EIO, "sub/deep");
  auto result = d.import_moving();
  check_stop(result, tfwsl::ErrorCode::io, "making the folder durable 'sub/deep'");
  // Renamed but not recorded: the copy is not known durable, so its source stays.
  CHECK(read_file(d.source / "sub" / "deep" / "c.txt") == "gamma");
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}

TEST_CASE("commit: EIO making the manifest's records durable stops the job naming the target - sources stay",
          "[engine][port][commit]") {
  PhaseSandbox d;
  d.files.fail("sync_manifest", EIO);
  auto result = d.import_moving();
  check_stop(result, tfwsl::ErrorCode::io, "writing the import manifest");
  CHECK(message_has(result.error().message, d.target.string()));
  CHECK(files_under(d.source) == d.originals);  // nothing recorded, so nothing deleted
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}

TEST_CASE("move: a failed rename into place stops the job naming the file - its source stays", "[engine][port][move]") {
  PhaseSandbox d;
  d.files.fail("rename_into_place", EIO, "sub/deep/c.txt");
  auto result = d.import_moving();
  check_stop(result, tfwsl::ErrorCode::io, "renaming the copy into place 'sub/deep/c.txt'");
  CHECK(read_file(d.source / "sub" / "deep" / "c.txt") == "gamma");
  CHECK_FALSE(fs::exists(d.target / "sub" / "deep" / "c.txt"));
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}

TEST_CASE("move: a source that cannot be deleted is kept and reported with the fix - a rerun deletes it",
          "[engine][port][move]") {
  PhaseSandbox d;
  d.files.fail("unlink_source", EACCES, "sub/b.bin");
  auto result = d.import_moving();
  REQUIRE(result);
  REQUIRE(result->problems.size() == 1);
  const FileProblem& problem = result->problems.front();
  CHECK(problem.path == "sub/b.bin");
  CHECK(problem.kind == "kept");
  CHECK(message_has(problem.message, "EACCES"));
  CHECK(message_has(problem.message, "run the import again"));
  CHECK(read_file(d.source / "sub" / "b.bin") == d.originals.at("sub/b.bin"));
  CHECK(read_file(d.target / "sub" / "b.bin") == d.originals.at("sub/b.bin"));
  CHECK(files_under(d.source).size() == 1);
  d.check_nothing_lost_or_strayed();
  d.check_rerun_completes();
}
