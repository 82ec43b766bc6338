#include "common/resources/embedded_resources.hpp"

namespace tfwsl {

std::optional<std::string_view> embedded_resource(std::string_view name) {
  for (std::size_t i = 0; i < detail::k_embedded_file_count; ++i) {
    const auto& file = detail::k_embedded_files[i];
    if (name == file.name) return std::string_view(reinterpret_cast<const char*>(file.data), file.size);
  }
  return std::nullopt;
}

std::vector<std::string_view> embedded_resource_names() {
  std::vector<std::string_view> names;
  for (std::size_t i = 0; i < detail::k_embedded_file_count; ++i) names.emplace_back(detail::k_embedded_files[i].name);
  return names;  // the generator sorts the files
}

}  // namespace tfwsl
