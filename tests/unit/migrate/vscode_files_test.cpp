// The .vscode merge of `tfwsl code` (win/migrate/vscode_files.hpp) on texts: what VS Code's JSONC
// allows and a rewrite would lose (comments, trailing commas) is refused with the keys to add by
// hand; shapes that are not VS Code's are refused by name; deep nesting is bounded before parsing.
#include "win/migrate/vscode_files.hpp"

#include <catch2/catch.hpp>
#include <string>

using namespace tfwsl;
using namespace tfwsl::migrate;

namespace {

WslCopyRecord sample() {
  WslCopyRecord r;
  r.distro = "Ubuntu-22.04";
  r.linux_path = "/home/me/projects/flowers";
  r.venv = "/home/me/.venvs/tf-2.15";
  r.profile = "tf-2.15-cuda-12.2";
  r.main = {"train", ""};
  return r;
}

}  // namespace

TEST_CASE("a settings.json with trailing commas or comments is left as it is, with what to add", "[migrate][vscode]") {
  for (const std::string jsonc : {std::string("{\"a\": 1,}\n"), std::string("{\n  /* x */ \"a\": 1\n}\n")}) {
    auto merged = merge_vscode_settings(jsonc, sample());
    REQUIRE_FALSE(merged);
    CHECK(merged.error().message.find(".vscode/settings.json") != std::string::npos);
    CHECK(merged.error().message.find("/home/me/.venvs/tf-2.15/bin/python") != std::string::npos);
  }
}

TEST_CASE("shapes that are not VS Code's are refused by name, depth is bounded", "[migrate][vscode]") {
  CHECK_FALSE(merge_vscode_settings(std::string("[1, 2]"), sample()));
  CHECK_FALSE(merge_vscode_launch(std::string("{\"configurations\": {}}"), sample()));
  CHECK_FALSE(merge_vscode_launch(std::string(100000, '[') + std::string(100000, ']'), sample()));
}

TEST_CASE("the debug configuration runs the checked main module with the venv", "[migrate][vscode]") {
  auto merged = merge_vscode_launch(std::nullopt, sample());
  REQUIRE(merged);
  REQUIRE(merged->text);
  const auto launch = nlohmann::json::parse(*merged->text);
  const auto& c = launch["configurations"][0];
  CHECK(c["module"] == "train");
  CHECK(c["python"] == "/home/me/.venvs/tf-2.15/bin/python");
  CHECK(c["name"] == "tfwsl: flowers (tf-2.15-cuda-12.2)");
  auto again = merge_vscode_launch(*merged->text, sample());
  REQUIRE(again);
  CHECK_FALSE(again->text);  // already there: nothing to write
}
