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

// Where the project lives: "https://github.com/tfwsl/tfwsl" (CMake's project(HOMEPAGE_URL)).
std::string_view project_url();
// tfwsl's winget package identifier, "tfwsl.tfwsl" (TFWSL_WINGET_ID in the top CMakeLists.txt, the
// one place for it: the release's winget manifests read it there too).
std::string_view winget_id();
// Where to report a bug and what to attach, in one sentence for exit 3 and tfwsl --help (issue 43,
// item 15): the project's issues page and the doctor's bundle, which holds both sides' facts.
std::string bug_report_words();

}  // namespace tfwsl::build_info
