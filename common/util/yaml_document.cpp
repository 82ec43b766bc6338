#include "common/util/yaml_document.hpp"

#include <fmt/format.h>

namespace tfwsl {

std::string yaml_position(std::string_view file, const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return std::string(file);
  return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

Result<YAML::Node> parse_yaml_document(std::string_view text, std::string_view file) {
  try {
    // yaml-cpp stops at the first document; a second one ("---") is ignored, which is fine for
    // configuration files but worth knowing.
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return make_error(ErrorCode::parse,
                      fmt::format("{}: YAML syntax error: {}; fix the file's indentation or quoting there",
                                  yaml_position(file, e.mark), e.msg),
                      e.what());
  } catch (const std::exception& e) {
    return make_error(ErrorCode::parse, fmt::format("{}: cannot read YAML: {}", file, e.what()));
  }
}

std::optional<std::string> yaml_scalar(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar()) return std::nullopt;
  return node.Scalar();
}

}  // namespace tfwsl
