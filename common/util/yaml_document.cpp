#include "common/util/yaml_document.hpp"

#include <fmt/format.h>

namespace tfwsl {

std::string yaml_position(std::string_view file, const YAML::Mark& mark) {
  if (mark.is_null() || mark.line < 0) return std::string(file);
  return fmt::format("{}:{}:{}", file, mark.line + 1, mark.column + 1);
}

tl::expected<YAML::Node, YamlSyntaxError> load_yaml(std::string_view text) {
  try {
    // yaml-cpp stops at the first document; a second one ("---") is ignored, which is fine for
    // configuration files but worth knowing.
    return YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    YamlSyntaxError error{e.msg};
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
  return make_error(ErrorCode::parse,
                    fmt::format("{}: YAML syntax error: {}; fix the file's indentation or quoting there", where, e.message));
}

std::optional<std::string> yaml_scalar(const YAML::Node& node) {
  if (!node.IsDefined() || !node.IsScalar()) return std::nullopt;
  return node.Scalar();
}

}  // namespace tfwsl
