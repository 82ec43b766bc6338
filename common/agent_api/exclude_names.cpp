#include "common/agent_api/exclude_names.hpp"

#include <fmt/format.h>

namespace tfwsl::agent_api {
namespace {

// Why `name` cannot name a file or folder; empty when it can.
std::string exclude_name_problem(const std::string& name) {
  if (name.empty()) return "is empty";
  if (name.size() > k_max_exclude_name_bytes)
    return fmt::format("is {} bytes long; a file name has at most {}", name.size(), k_max_exclude_name_bytes);
  if (name == "." || name == "..") return "is '" + name + "', which names no entry of its own";
  if (name.find('\0') != std::string::npos) return "contains a NUL byte, which no file name holds";
  if (name.find('/') != std::string::npos)
    return "contains '/': give a file or folder name (it matches at any depth), not a path";
  return {};
}

}  // namespace

Status check_exclude_names(const std::vector<std::string>& names, std::string_view field) {
  if (names.size() > k_max_exclude_names)
    return make_error(ErrorCode::invalid_input, fmt::format("'{}' has {} names; at most {} are allowed", field,
                                                            names.size(), k_max_exclude_names));
  for (std::size_t i = 0; i < names.size(); ++i) {
    auto problem = exclude_name_problem(names[i]);
    if (!problem.empty())
      return make_error(ErrorCode::invalid_input, fmt::format("'{}' name {} {}", field, i + 1, problem));
  }
  return {};
}

}  // namespace tfwsl::agent_api
