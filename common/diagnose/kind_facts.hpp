#pragma once
// The facts of one paste: what the parser of its kind read, plus the facts derived for the
// signatures' conditions (wsl1_distros, windows_build, tensorflow_allows, route, python_conflict,
// platform, wsl_errors, lint, ...), as docs/explain.md lists them.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/diagnose/signature_base.hpp"
#include "common/parse/paste_cleaner.hpp"
#include "common/wslconfig/wslconfig_lint.hpp"

namespace tfwsl::diagnose {

// `lint_out` receives the .wslconfig linter's findings (kind wslconfig); `paste` (may be null) gives
// the commands seen at the paste's prompts.
nlohmann::json kind_facts(const std::string& kind, std::string_view text, const SignatureBase& base,
                          const CleanedPaste* paste, std::vector<wslconfig::Finding>* lint_out);

}  // namespace tfwsl::diagnose
