#pragma once
// yaml-cpp behind errors-as-values: parse text into a node tree without letting an exception
// escape, and say where a node came from as "file:line:col" (1-based, as editors count).

#include <yaml-cpp/yaml.h>

#include <optional>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl {

// "profiles/team.yaml:3:5". A node without a position (built in code) gives just the file.
std::string yaml_position(std::string_view file, const YAML::Mark& mark);

// Where yaml-cpp stopped (1-based; 0 when it gave no position) and why, for callers that report
// positions their own way (profile issues).
struct YamlSyntaxError {
  std::string message;  // the mistake in a reader's words (yaml_problem_words.hpp)
  std::string fix;      // what to change there
  int line = 0;
  int column = 0;
  bool too_deep = false;  // nested deeper than k_nesting_limit (nesting_depth.hpp) or yaml-cpp's own limit
};
// The whole text as one YAML document; nothing yaml-cpp throws escapes (every direct YAML::Load in
// the tree goes through here: tests/layering refuses others). A text whose flow collections nest
// deeper than k_nesting_limit is refused before yaml-cpp sees it (yaml-cpp recurses once a level).
tl::expected<YAML::Node, YamlSyntaxError> load_yaml(std::string_view text);

// The whole text as one YAML document. Syntax errors and nesting too deep become ErrorCode::parse
// with the position and the fix in the message. An empty document is a null node.
Result<YAML::Node> parse_yaml_document(std::string_view text, std::string_view file);

// The scalar text of a node, or nothing for maps, sequences and null.
std::optional<std::string> yaml_scalar(const YAML::Node& node);

}  // namespace tfwsl
