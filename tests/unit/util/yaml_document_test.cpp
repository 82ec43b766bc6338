#include "common/util/yaml_document.hpp"

#include <catch2/catch.hpp>
#include <string>

// Issue 38, item 3: every YAML text tfwsl reads (profiles, environment.yml candidates, compat data)
// goes through load_yaml, which refuses flow collections nested past the limit before yaml-cpp
// recurses into them, and reports yaml-cpp's own depth limit (block nesting) the same way.
TEST_CASE("load_yaml: nesting too deep is an error with its line, marked too deep, never a crash", "[util]") {
  const std::string flow = "name: x\nwsl: " + std::string(200000, '[') + "\n";
  const auto refused = tfwsl::load_yaml(flow);
  REQUIRE_FALSE(refused);
  CHECK(refused.error().too_deep);
  CHECK(refused.error().line == 2);
  CHECK(refused.error().message.starts_with("nested deeper than 64 levels"));

  std::string block;  // 2100 levels of indentation: past yaml-cpp's own guard (2000), under ours
  for (int level = 0; level < 2100; ++level) block += std::string(level, ' ') + "a:\n";
  const auto guarded = tfwsl::load_yaml(block);
  REQUIRE_FALSE(guarded);
  CHECK(guarded.error().too_deep);

  const auto document = tfwsl::parse_yaml_document(flow, "team.yaml");
  REQUIRE_FALSE(document);
  CHECK(document.error().message ==
        "team.yaml:2:1: nested deeper than 64 levels (flow [ ] and { } collections and '- ' "
        "entries inside each other); flatten it there");
  CHECK(tfwsl::load_yaml("a: [[1, 2], {b: [3]}]\n"));
}
