#pragma once
// Data files built into the binaries (cmake/embed_resources.cmake turns profiles/*.yaml into a
// generated source): the compatibility data (compat.yaml) and the shipped team profiles. Names are
// file names inside profiles/.

#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace tfwsl {

namespace detail {
struct EmbeddedFile {
  const char* name;
  const unsigned char* data;
  std::size_t size;
};
extern const EmbeddedFile* const k_embedded_files;
extern const std::size_t k_embedded_file_count;
}  // namespace detail

// The bytes of a built-in file, or nothing when no file has that name ("compat.yaml").
std::optional<std::string_view> embedded_resource(std::string_view name);

// Every built-in file name, sorted.
std::vector<std::string_view> embedded_resource_names();

}  // namespace tfwsl
