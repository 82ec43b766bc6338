#include "linux/provision/state_folder.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tests/support/test_environment.hpp"
#include "tests/unit/agent/scratch_user.hpp"

// Root keeps the provision lock, journal and logs in the state folder (linux/provision/state_folder.hpp):
// nothing there may lead root out of it, and a folder someone else can change is refused.

using namespace tfwsl;
using namespace tfwsl::provision;
namespace fs = std::filesystem;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void write_file(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

}  // namespace

TEST_CASE("a state folder is made private, and its files are never opened through a link") {
  test::TempDir dir;
  const fs::path state = dir.path() / "state";
  REQUIRE(prepare_state_folder(state));
  struct stat st {};
  REQUIRE(::lstat((state / "logs").c_str(), &st) == 0);
  CHECK((st.st_mode & 077) == (0750 & 077));
  // Planted links (a victim file only root may read) are refused, and the victim keeps its bytes.
  write_file(dir.path() / "victim", "precious");
  fs::create_symlink(dir.path() / "victim", state / "lock");
  fs::create_symlink(dir.path() / "victim", state / "journal.jsonl");
  CHECK(open_state_file(state / "lock", O_RDWR | O_CREAT) == -1);
  CHECK(errno == ELOOP);
  append_state_line(state / "journal.jsonl", "{\"event\":\"run-start\"}");
  CHECK(read_all(dir.path() / "victim") == "precious");
  // A FIFO is refused at once instead of blocking the run.
  REQUIRE(::mkfifo((state / "logs" / "apt.log").c_str(), 0600) == 0);
  CHECK(open_state_file(state / "logs" / "apt.log", O_WRONLY | O_APPEND | O_CREAT) == -1);
  // A regular file is appended to, one whole line per call.
  append_state_line(state / "processes.jsonl", "one");
  append_state_line(state / "processes.jsonl", "two");
  CHECK(read_all(state / "processes.jsonl") == "one\ntwo\n");
}

TEST_CASE("a state folder that is a link, or that others may write, is refused by name") {
  test::TempDir dir;
  fs::create_directories(dir.path() / "real");
  fs::create_symlink(dir.path() / "real", dir.path() / "linked");
  auto linked = prepare_state_folder(dir.path() / "linked");
  REQUIRE_FALSE(linked);
  CHECK(linked.error().message.find("linked is a symbolic link") != std::string::npos);

  fs::create_directories(dir.path() / "open");
  fs::permissions(dir.path() / "open", fs::perms::all);  // 0777, no sticky bit
  auto open = prepare_state_folder(dir.path() / "open" / "state");
  REQUIRE_FALSE(open);
  CHECK(open.error().message.find("open can be written by others (mode 777)") != std::string::npos);
  CHECK(open.error().message.find("the default, /var/lib/tfwsl/provision, is one") != std::string::npos);

  // Sticky, as /tmp: others may write there but not replace root's entries.
  fs::create_directories(dir.path() / "sticky");
  ::chmod((dir.path() / "sticky").c_str(), 01777);
  CHECK(prepare_state_folder(dir.path() / "sticky" / "state"));
  // The state folder itself may not be writable by others, sticky or not.
  ::chmod((dir.path() / "sticky" / "state").c_str(), 01777);
  CHECK_FALSE(prepare_state_folder(dir.path() / "sticky" / "state"));
}

TEST_CASE("nothing is made beneath a state folder path before it is judged") {
  test::TempDir dir;
  // The state folder itself may not be a link: before, its logs/ was made through it first.
  fs::create_directories(dir.path() / "elsewhere");
  fs::create_symlink(dir.path() / "elsewhere", dir.path() / "via-link");
  CHECK_FALSE(prepare_state_folder(dir.path() / "via-link"));
  CHECK(fs::is_empty(dir.path() / "elsewhere"));
  // A folder others may write is refused before a folder is made in it.
  fs::create_directories(dir.path() / "open");
  fs::permissions(dir.path() / "open", fs::perms::all);
  CHECK_FALSE(prepare_state_folder(dir.path() / "open" / "a" / "state"));
  CHECK(fs::is_empty(dir.path() / "open"));
}

TEST_CASE("a state folder owned by an unprivileged user is refused for root") {
  test::ScratchUser scratch;  // skips (exit 77) without root
  const fs::path home_state = fs::path(scratch.user().home) / "state";
  fs::create_directories(home_state);
  scratch.give(home_state);
  auto refused = prepare_state_folder(home_state);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find(fmt::format("is owned by uid {}", scratch.user().uid)) != std::string::npos);
  CHECK_FALSE(fs::exists(home_state / "lock"));
}
