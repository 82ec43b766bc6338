#include "common/util/linked_folder.hpp"

namespace tfwsl {

std::optional<std::filesystem::path> first_linked_folder(const std::filesystem::path& base,
                                                         const std::filesystem::path& relative) {
  std::filesystem::path at = base;
  for (const auto& part : relative.parent_path()) {
    if (part.empty() || part == ".") continue;
    at /= part;
    bool missing = false;
    if (!detail::is_plain_folder_or_missing(at, missing)) return at;
    if (missing) return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace tfwsl
