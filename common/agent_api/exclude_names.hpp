#pragma once
// The names a dataset import leaves out (POST /v1/datasets "exclude", `--exclude` of
// `tfwsl-agent dataset import` and `tfwsl data push`): base names matched exactly, case-sensitively,
// against every file, symlink and folder at any depth of the source; a matched folder is not
// entered. One check for the agent and both CLIs, so that a name the client accepts is one the
// agent accepts.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::agent_api {

inline constexpr std::size_t k_max_exclude_names = 64;
inline constexpr std::size_t k_max_exclude_name_bytes = 255;  // NAME_MAX on Linux filesystems

// invalid_input naming `field` ("exclude", "--exclude") when the list is too long or a name is
// empty, too long, "." or "..", or holds '/' or a NUL byte (neither can be in a file name).
Status check_exclude_names(const std::vector<std::string>& names, std::string_view field);

}  // namespace tfwsl::agent_api
