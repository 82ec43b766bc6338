#include <catch2/catch.hpp>

#include <filesystem>

#include "common/dataset/path_policy.hpp"
#include "tests/support/test_environment.hpp"

using namespace tfwsl::dataset;
namespace fs = std::filesystem;

TEST_CASE("import paths: refused before any I/O when they cannot work", "[path_policy]") {
  tfwsl::test::TempDir tmp;
  fs::path src = tmp.path() / "src";
  fs::create_directories(src / "inner");
  fs::create_symlink(src, tmp.path() / "src-link");

  auto ok = resolve_import_paths(tmp.path() / "src-link", tmp.path() / "new" / "target");
  REQUIRE(ok);
  CHECK(ok->source == fs::canonical(src));
  CHECK(ok->target == fs::canonical(tmp.path()) / "new" / "target");

  auto missing = resolve_import_paths(tmp.path() / "nope", tmp.path() / "t");
  REQUIRE_FALSE(missing);
  CHECK(missing.error().code == tfwsl::ErrorCode::not_found);

  auto inside = resolve_import_paths(src, tmp.path() / "src-link" / "inner" / "t");
  REQUIRE_FALSE(inside);
  CHECK(inside.error().message.find("inside") != std::string::npos);

  auto same = resolve_import_paths(src, tmp.path() / "src-link");
  REQUIRE_FALSE(same);
  CHECK(same.error().message.find("same folder") != std::string::npos);

  tfwsl::test::write_file(tmp.path() / "file", "x");
  CHECK_FALSE(resolve_import_paths(tmp.path() / "file", tmp.path() / "t"));
  CHECK_FALSE(resolve_import_paths(src, tmp.path() / "file"));
  CHECK_FALSE(resolve_import_paths("", tmp.path() / "t"));
}

TEST_CASE("import paths must lie under the agent's roots", "[path_policy]") {
  tfwsl::test::TempDir tmp;
  fs::create_directories(tmp.path() / "data" / "set");
  fs::create_directories(tmp.path() / "database");
  fs::path root = fs::canonical(tmp.path()) / "data";
  CHECK(check_under_roots(root / "set", {tmp.path() / "data"}, "source"));
  CHECK(check_under_roots(root, {tmp.path() / "data"}, "source"));
  auto sibling = check_under_roots(fs::canonical(tmp.path()) / "database", {tmp.path() / "data"}, "target");
  REQUIRE_FALSE(sibling);  // a shared prefix of characters is not containment
  CHECK(sibling.error().message.find(root.string()) != std::string::npos);
  auto none = check_under_roots(root, {}, "source");
  REQUIRE_FALSE(none);
  CHECK(none.error().message.find("--root") != std::string::npos);
  CHECK(is_same_or_inside("/a/b/c", "/a/b"));
  CHECK_FALSE(is_same_or_inside("/a/bc", "/a/b"));
}
