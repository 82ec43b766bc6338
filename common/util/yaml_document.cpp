#include "common/util/yaml_document.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include "common/util/nesting_depth.hpp"
#include "common/util/yaml_problem_words.hpp"

namespace tfwsl {

std::string yaml_position(std::string_view file, const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return std::string(file);
  return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

tl::expected<YAML::Node, YamlSyntaxError> load_yaml(std::string_view text) {
  if (const NestingDepth found = deepest_nesting(text, NestingSyntax::yaml); found.depth > k_nesting_limit)
    return tl::unexpected(YamlSyntaxError{nesting_problem(NestingSyntax::yaml), "flatten it there",
                                          static_cast<int>(found.line), 1, true});
  try {
    // yaml-cpp stops at the first document; a second one ("---") is ignored, which is fine for
    // configuration files but worth knowing.
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    YamlProblemWords words = yaml_problem_words(e.msg);
    YamlSyntaxError error{std::move(words.what), std::move(words.fix)};
    error.too_deep = dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr;
    if (error.too_deep) error.fix = "flatten it there";
    if (!e.mark.is_null() && e.mark.line >= 0) error.line = e.mark.line + 1, error.column = e.mark.column + 1;
    return tl::unexpected(std::move(error));
  } catch (const std::exception& e) {
    return tl::unexpected(YamlSyntaxError{e.what(), "fix the file's indentation or quoting there"});
  }
}

Result<YAML::Node> parse_yaml_document(std::string_view text, std::string_view file) {
  auto loaded = load_yaml(text);
  if (loaded) return std::move(*loaded);
  const auto& e = loaded.error();
  const std::string where = e.line > 0 ? fmt::format("{}:{}:{}", file, e.line, e.column) : std::string(file);
  if (e.too_deep) return make_error(ErrorCode::parse, fmt::format("{}: {}; {}", where, e.message, e.fix));
  return make_error(ErrorCode::parse, fmt::format("{}: YAML syntax error: {}; {}", where, e.message, e.fix));
}

std::optional<std::string> yaml_scalar(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar()) return std::nullopt;
  return node.Scalar();
}

}  // namespace tfwsl
