#include "common/profile/apt_package_rule.hpp"

#include <fmt/format.h>

#include <regex>

namespace tfwsl {

bool looks_like_apt_package_name(std::string_view name) {
  static const std::regex k_name(R"(^[a-z0-9][a-z0-9+.\-]{1,99}$)");
  return std::regex_match(std::string(name), k_name);
}

std::optional<std::string> apt_package_name_problem(std::string_view name) {
  if (looks_like_apt_package_name(name)) return std::nullopt;
  if (!name.empty() && name.front() == '-')
    return fmt::format("'{}' is an option, not an apt package name: tfwsl never passes options to apt from a profile",
                       name);
  if (name.find('=') != std::string_view::npos)
    return fmt::format(
        "'{}' pins a version: a profile lists apt package names only (lower-case letters, digits, '+', '-', '.')",
        name);
  return fmt::format("'{}' is not an apt package name (lower-case letters, digits, '+', '-', '.')", name);
}

}  // namespace tfwsl
