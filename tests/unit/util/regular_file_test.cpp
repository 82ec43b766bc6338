// read_regular_file: only a regular file (or a link to one), never more than the cap; a FIFO and a
// device are refused without being read (issue 22, item 13: `wslconfig --file /dev/zero` grew past
// 4 GB, a FIFO blocked forever).
#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <string>

#ifndef _WIN32
#include <sys/stat.h>
#endif

#include "common/util/regular_file.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

TEST_CASE("a regular file is read whole", "[regular_file]") {
  test::TempDir dir;
  test::write_file(dir.path() / "a", std::string("x\0y", 3));
  const auto read = read_regular_file(dir.path() / "a", 100);
  CHECK(read.problem == FileReadProblem::none);
  CHECK(read.bytes == std::string("x\0y", 3));
  CHECK(read_regular_file(dir.path() / "empty-missing", 100).problem == FileReadProblem::missing);
}

TEST_CASE("a folder and a file over the cap are refused", "[regular_file]") {
  test::TempDir dir;
  const auto folder = read_regular_file(dir.path(), 100);
  CHECK(folder.problem == FileReadProblem::not_regular);
  CHECK(std::string(folder.kind) == "a folder");
  test::write_file(dir.path() / "big", std::string(101, 'x'));
  const auto big = read_regular_file(dir.path() / "big", 100);
  CHECK(big.problem == FileReadProblem::too_large);
  CHECK(big.size == 101);
  CHECK(big.bytes.empty());
  CHECK(read_regular_file(dir.path() / "big", 101).problem == FileReadProblem::none);
}

#ifndef _WIN32
TEST_CASE("a device and a FIFO are refused at once, without a read", "[regular_file]") {
  const auto zero = read_regular_file("/dev/zero", 1 << 20);
  CHECK(zero.problem == FileReadProblem::not_regular);
  CHECK(std::string(zero.kind) == "a device");
  test::TempDir dir;
  const auto fifo = dir.path() / "fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const auto started = std::chrono::steady_clock::now();
  const auto read = read_regular_file(fifo, 1 << 20);  // a blocking open would wait here for a writer
  CHECK(read.problem == FileReadProblem::not_regular);
  CHECK(std::string(read.kind) == "a FIFO (named pipe)");
  CHECK(std::chrono::steady_clock::now() - started < std::chrono::seconds(2));
}

TEST_CASE("a link to a regular file is followed, a dangling one is missing", "[regular_file]") {
  test::TempDir dir;
  test::write_file(dir.path() / "real", "text");
  fs::create_symlink(dir.path() / "real", dir.path() / "link");
  CHECK(read_regular_file(dir.path() / "link", 100).bytes == "text");
  fs::create_symlink(dir.path() / "absent", dir.path() / "dangling");
  CHECK(read_regular_file(dir.path() / "dangling", 100).problem == FileReadProblem::missing);
  fs::create_symlink("/dev/zero", dir.path() / "to-zero");
  CHECK(read_regular_file(dir.path() / "to-zero", 100).problem == FileReadProblem::not_regular);
}
#endif
