// The agent's writes into a project's WSL copy (linux/project/project_tree.hpp) on real files: a
// project that ships symlinks where migrate writes cannot make it write outside the project.
#include "linux/project/project_tree.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>

#include "common/util/content_hash.hpp"

using namespace tfwsl;
using namespace tfwsl::project;
namespace fs = std::filesystem;

namespace {

struct TempHome {
  fs::path path;
  TempHome() {
    std::string pattern = (fs::temp_directory_path() / "tfwsl-project-XXXXXX").string();
    REQUIRE(::mkdtemp(pattern.data()) != nullptr);
    path = pattern;
  }
  ~TempHome() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

void spit(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("a write never follows a link the project ships, at the name or on the way", "[project][tree]") {
  TempHome home;
  const fs::path bashrc = home.path / ".bashrc";
  spit(bashrc, "# the user's own\n");
  const fs::path project = home.path / "projects" / "p";
  fs::create_directories(project / ".tfwsl");
  fs::create_symlink("../../.bashrc", project / "MIGRATION.md.tfwsl-new");  // the old code's temporary name
  fs::create_symlink("../../.bashrc", project / "tfwsl.yaml");
  fs::create_symlink(home.path, project / "sub");
  auto root = open_project_root(project, false);
  REQUIRE(root);

  // The old temporary name is no longer used, and MIGRATION.md is written as a new file.
  REQUIRE(write_beneath(root->get(), "MIGRATION.md", "# report\n", Expectation::parse("absent")));
  CHECK(slurp(project / "MIGRATION.md") == "# report\n");
  CHECK(slurp(bashrc) == "# the user's own\n");

  auto refused = write_beneath(root->get(), "tfwsl.yaml", "extends: x\n", Expectation::parse("any"));
  REQUIRE_FALSE(refused);
  CHECK(refused.error().message.find("tfwsl.yaml is a symbolic link") != std::string::npos);
  auto under_link = write_beneath(root->get(), "sub/.bashrc", "pwned\n", Expectation::parse("any"));
  REQUIRE_FALSE(under_link);
  CHECK(under_link.error().message.find("sub is a symbolic link") != std::string::npos);
  CHECK_FALSE(write_beneath(root->get(), "../x", "x", Expectation::parse("any")));
  CHECK(slurp(bashrc) == "# the user's own\n");
  CHECK(fs::is_symlink(project / "tfwsl.yaml"));

  // A temporary name planted as a link cannot be used either: the temporary is created exclusive.
  fs::create_symlink("../../.bashrc", project / ".tfwsl" / ".migrate-state.json.tfwsl-planted");
  REQUIRE(write_beneath(root->get(), ".tfwsl/migrate-state.json", "{}\n", Expectation::parse("any")));
  CHECK(slurp(project / ".tfwsl/migrate-state.json") == "{}\n");
  CHECK(slurp(bashrc) == "# the user's own\n");
  std::size_t leftovers = 0;
  for (const auto& e : fs::directory_iterator(project / ".tfwsl"))
    if (e.path().filename().string().find(".tfwsl-") != std::string::npos && !fs::is_symlink(e.path())) ++leftovers;
  CHECK(leftovers == 0);
}

TEST_CASE("a write replaces only what it expects, and a read refuses a link", "[project][tree]") {
  TempHome home;
  const fs::path project = home.path / "p";
  auto root = open_project_root(project, true);
  REQUIRE(root);
  REQUIRE(write_beneath(root->get(), "a/b/c.txt", "one", Expectation::parse("absent")));
  CHECK_FALSE(write_beneath(root->get(), "a/b/c.txt", "two", Expectation::parse("absent")));
  CHECK_FALSE(write_beneath(root->get(), "a/b/c.txt", "two", Expectation::parse(content_hash("other"))));
  REQUIRE(write_beneath(root->get(), "a/b/c.txt", "two", Expectation::parse(content_hash("one"))));
  CHECK(slurp(project / "a/b/c.txt") == "two");
  auto text = read_beneath(root->get(), "a/b/c.txt", 100);
  REQUIRE(text);
  CHECK(text->value() == "two");
  auto missing = read_beneath(root->get(), "nothing", 100);
  REQUIRE(missing);
  CHECK_FALSE(missing->has_value());
  fs::create_symlink("/etc/hostname", project / "state.json");
  CHECK_FALSE(read_beneath(root->get(), "state.json", 100));
}

TEST_CASE("a read refuses a FIFO by name at once instead of waiting for a writer", "[project][tree]") {
  TempHome home;
  const fs::path project = home.path / "p";
  auto root = open_project_root(project, true);
  REQUIRE(root);
  REQUIRE(::mkfifo((project / "pyproject.toml").c_str(), 0600) == 0);
  auto reading = std::async(std::launch::async, [&] { return read_beneath(root->get(), "pyproject.toml", 100); });
  if (reading.wait_for(std::chrono::seconds(5)) != std::future_status::ready) {
    // A writer that opens and closes at once lets the blocked open return, so the test can end.
    const int writer = ::open((project / "pyproject.toml").c_str(), O_WRONLY | O_NONBLOCK);
    if (writer >= 0) ::close(writer);
    reading.wait();
    FAIL("read_beneath waited on the FIFO for 5 s");
  }
  const auto read = reading.get();
  REQUIRE_FALSE(read);
  CHECK_THAT(read.error().message, Catch::Contains("pyproject.toml is a FIFO (named pipe)"));
}

TEST_CASE("the manifest lists regular files only, and placing moves staged files where the WSL copy is unchanged",
          "[project][tree]") {
  TempHome home;
  const fs::path project = home.path / "p";
  const fs::path staging = home.path / ".p.tfwsl-staging";
  spit(project / "train.py", "edited in WSL\n");
  spit(project / ".tfwsl/migrate-state.json", "{}");
  fs::create_symlink("/etc", project / "etc-link");
  spit(staging / "train.py", "from Windows\n");
  spit(staging / "pkg/new.py", "new\n");
  spit(staging / ".tfwsl-import/manifest", "x");
  auto root = open_project_root(project, false);
  auto stage = open_project_root(staging, false);
  REQUIRE(root);
  REQUIRE(stage);
  auto manifest = manifest_beneath(root->get(), {".tfwsl", ".tfwsl-import"});
  REQUIRE(manifest);
  CHECK(manifest->size() == 2);
  CHECK(manifest->at("train.py") == FileDigest{14, content_hash("edited in WSL\n")});
  CHECK(manifest->at("etc-link").size == 4);  // the link as itself: "/etc"
  auto placed = place_beneath(stage->get(), root->get(),
                              {{"train.py", Expectation::parse(content_hash("what migrate placed\n"))},
                               {"pkg/new.py", Expectation::parse("absent")}});
  REQUIRE(placed);
  CHECK(placed->placed.size() == 1);
  CHECK(placed->placed.contains("pkg/new.py"));
  REQUIRE(placed->refused.size() == 1);
  CHECK(placed->refused[0].first == "train.py");
  CHECK(slurp(project / "train.py") == "edited in WSL\n");
  CHECK(slurp(project / "pkg/new.py") == "new\n");
  fs::create_symlink("/etc", staging / "etc-link");
  dataset::UniqueFd parent(::open(home.path.c_str(), O_RDONLY | O_DIRECTORY));
  REQUIRE(remove_tree(parent.get(), ".p.tfwsl-staging"));
  CHECK_FALSE(fs::exists(staging));
  CHECK(fs::exists("/etc/hostname"));  // the link was removed as itself, never followed
}
