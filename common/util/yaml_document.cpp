#include "common/util/yaml_document.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include "common/util/nesting_depth.hpp"

namespace tfwsl {

std::string yaml_position(std::string_view file, const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return std::string(file);
  return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

tl::expected<YAML::Node, YamlSyntaxError> load_yaml(std::string_view text) {
  if (const NestingDepth found = deepest_nesting(text, NestingSyntax::yaml); found.depth > k_nesting_limit)
    return tl::unexpected(YamlSyntaxError{nesting_problem(NestingSyntax::yaml), static_cast<int>(found.line), 1, true});
  try {
    // yaml-cpp stops at the first document; a second one ("---") is ignored, which is fine for
    // configuration files but worth knowing.
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    YamlSyntaxError error{e.msg};
    error.too_deep = dynamic_cast<const YAML::DeepRecursion*>(&e) != nullptr;
    if (!e.mark.is_null() && e.mark.line >= 0) error.line = e.mark.line + 1, error.column = e.mark.column + 1;
    return tl::unexpected(std::move(error));
  } catch (const std::exception& e) {
    return tl::unexpected(YamlSyntaxError{e.what()});
  }
}

Result<YAML::Node> parse_yaml_document(std::string_view text, std::string_view file) {
  auto loaded = load_yaml(text);
  if (loaded) return std::move(*loaded);
  const auto& e = loaded.error();
  const std::string where = e.line > 0 ? fmt::format("{}:{}:{}", file, e.line, e.column) : std::string(file);
  if (e.too_deep) return make_error(ErrorCode::parse, fmt::format("{}: {}; flatten it there", where, e.message));
  return make_error(ErrorCode::parse,
                    fmt::format("{}: YAML syntax error: {}; fix the file's indentation or quoting there", where, e.message));
}

std::optional<std::string> yaml_scalar(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar()) return std::nullopt;
  return node.Scalar();
}

}  // namespace tfwsl
