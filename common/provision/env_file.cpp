#include "common/provision/env_file.hpp"

#include <fmt/format.h>

namespace tfwsl::provision {

std::string fixups_env_path(const ProvisionPlan& plan) { return plan.env_file + ".fixups"; }

std::string env_file_text(const ProvisionPlan& plan) {
  std::string out =
      fmt::format("# Written by tfwsl provision (profile {}); source it before running TensorFlow.\n", plan.profile);
  for (const auto& [k, v] : plan.env) {
    std::string quoted;
    for (char ch : v) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    out += fmt::format("export {}='{}'\n", k, quoted);
  }
  const std::string fixups = fixups_env_path(plan);                   // written only when a fix-up needs a variable
  out += fmt::format("if [ -r '{0}' ]; then . '{0}'; fi\n", fixups);  // status 0 either way (set -e scripts)
  return out;
}

}  // namespace tfwsl::provision
