#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "win/push/host_free_space.hpp"
#include "win/push/job_state.hpp"
#include "win/push/progress_text.hpp"
#include "win/push/source_tree.hpp"

using namespace tfwsl;

TEST_CASE("a job answer of the agent is read - a missing state is an error naming it", "[push]") {
  auto j = nlohmann::json::parse(R"({"id":"1","state":"running","source":"/s","target":"/t",
    "progress":{"phase":"copying","files_total":5007,"files_done":1204,"bytes_total":241172480,"bytes_done":120586240,
    "files_copied":1204,"files_skipped":0,"files_moved":0,"problems":0,"elapsed_seconds":3.2,
    "bytes_per_second":40195413.3,"eta_seconds":3.0,"current_file":"d/f"}})");
  auto s = push::parse_job_state(j);
  REQUIRE(s);
  CHECK(s->progress.files_done == 1204);
  CHECK(*s->progress.eta_seconds == 3.0);
  CHECK_FALSE(s->finished());
  CHECK(push::progress_text(s->progress) == "copying 50%: 1204/5007 files, 115.0/230.0 MiB, 38.3 MiB/s, ETA 0:03");
  auto bad = push::parse_job_state({{"id", "1"}});
  REQUIRE_FALSE(bad);
  CHECK_THAT(bad.error().message, Catch::Contains("state"));
  auto cancelled = push::parse_job_state(
      {{"id", "1"}, {"state", "cancelled"}, {"error", {{"code", "cancelled"}, {"message", "m"}}}});
  REQUIRE(cancelled);
  CHECK(cancelled->finished());
  CHECK(cancelled->error_message == "m");
}

TEST_CASE("the host's free space is the system's figure for the drive holding a path", "[push]") {
  const auto folder = std::filesystem::temp_directory_path().string();
  auto real = push::make_system_free_space();
  auto bytes = real->free_bytes(folder);
  REQUIRE(bytes);
  CHECK(*bytes > 0);
}

TEST_CASE("the source is measured on this side: files, folders, bytes - symlinks counted, not followed", "[push]") {
  auto root = std::filesystem::temp_directory_path() /
              ("tfwsl-push-tree-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / "a" / "b");
  std::filesystem::create_directories(root / ".tfwsl-import");
  std::ofstream(root / "a" / "one") << std::string(1000, 'x');
  std::ofstream(root / "a" / "b" / "two") << std::string(24, 'y');
  std::ofstream(root / ".tfwsl-import" / "manifest") << "left out";
  std::error_code ec;
  std::filesystem::create_directory_symlink("/", root / "loop", ec);
  auto tree = push::measure_source_tree(root.string());
  REQUIRE(tree);
  CHECK(tree->files == (ec ? 2u : 3u));
  CHECK(tree->folders == 2);
  CHECK(tree->bytes == 1024);
  CHECK(push::measure_source_tree((root / "a" / "one").string()).error().code == ErrorCode::invalid_input);
  CHECK(push::measure_source_tree((root / "none").string()).error().code == ErrorCode::not_found);
  std::filesystem::remove_all(root);
}

TEST_CASE("the measure leaves out excluded names at any depth, as the engine does", "[push]") {
  auto root = std::filesystem::temp_directory_path() /
              ("tfwsl-push-exclude-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::filesystem::remove_all(root);
  std::filesystem::create_directories(root / ".venv" / "lib");
  std::filesystem::create_directories(root / "src" / "__pycache__");
  std::filesystem::create_directories(root / ".Git");
  std::ofstream(root / ".venv" / "lib" / "x.py") << std::string(500, 'v');
  std::ofstream(root / "src" / "__pycache__" / "a.pyc") << std::string(300, 'c');
  std::ofstream(root / "src" / "main.py") << std::string(10, 'm');
  std::ofstream(root / "src" / "__pycache__x") << std::string(5, 'n');  // not the name itself
  std::ofstream(root / "__pycache__") << std::string(7, 'f');           // a file of an excluded name
  std::ofstream(root / ".Git" / "config") << std::string(3, 'g');       // names match case-sensitively
  auto all = push::measure_source_tree(root.string());
  REQUIRE(all);
  CHECK(all->files == 6);
  CHECK(all->folders == 5);
  auto kept = push::measure_source_tree(root.string(), {".venv", "__pycache__", ".git"});
  REQUIRE(kept);
  CHECK(kept->files == 3);
  CHECK(kept->folders == 2);
  CHECK(kept->bytes == 18);
  std::filesystem::remove_all(root);
}
