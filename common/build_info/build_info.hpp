#pragma once
// What this binary was built from: the version (CMake's project(VERSION), the one source) and the
// commit with its clean/modified mark (cmake/build_stamp.cmake writes them at build time). Printed by
// `tfwsl --version` and `tfwsl-agent --version`, carried by `doctor --json` and the agent's /v1/info.

#include <string>
#include <string_view>

namespace tfwsl::build_info {

namespace detail {
extern const char* const k_commit;  // "abc1234"; "unknown" when built outside a git checkout
extern const bool k_modified;       // a tracked file differed from the commit
}  // namespace detail

std::string_view version();  // "0.2.0"
// "abc1234", "abc1234-dirty" (uncommitted changes were built), or "unknown".
std::string commit();
// "tfwsl 0.2.0 (abc1234)": the --version line of `program`.
std::string version_line(std::string_view program);

}  // namespace tfwsl::build_info
