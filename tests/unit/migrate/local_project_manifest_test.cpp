// The project's files on this side as migrate's copy takes them (win/migrate/local_project_manifest.hpp):
// each regular file with its size and content hash, the folders the copy leaves out left out here
// too, and a link neither followed nor listed.
#include "win/migrate/local_project_manifest.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "common/util/content_hash.hpp"

using namespace tfwsl;
namespace fs = std::filesystem;

TEST_CASE("local project manifest: files with their hash, the copy's skips, no links") {
  const fs::path root =
      fs::temp_directory_path() /
      ("tfwsl-local-manifest-" + std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()));
  fs::create_directories(root / "src");
  fs::create_directories(root / ".git");
  std::ofstream(root / "train.py", std::ios::binary) << "print('hi')\n";  // as written: no CRLF on Windows
  std::ofstream(root / "src" / "model.py") << "x = 1\n";
  std::ofstream(root / ".git" / "HEAD") << "ref: refs/heads/main\n";
  std::error_code ec;
  fs::create_symlink(root / "train.py", root / "link.py", ec);

  const auto manifest = migrate::local_project_manifest(root, false);
  REQUIRE(manifest.count("train.py") == 1);
  CHECK(manifest.at("train.py").size == 12);
  CHECK(manifest.at("train.py").hash == content_hash("print('hi')\n"));
  CHECK(manifest.count("src/model.py") == 1);
  CHECK(manifest.count(".git/HEAD") == 0);
  CHECK(manifest.count("link.py") == 0);
  CHECK(migrate::local_project_manifest(root, true).count(".git/HEAD") == 1);
  fs::remove_all(root);
}
