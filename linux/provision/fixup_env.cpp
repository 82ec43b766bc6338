#include "linux/provision/fixup_env.hpp"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace tfwsl::provision {

std::string fixups_env_path(const ProvisionPlan& plan) { return plan.env_file + ".fixups"; }

std::map<std::string, std::string> read_env_exports(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return parse_env_exports(text.str());
}

std::map<std::string, std::string> parse_env_exports(const std::string& text) {
  std::map<std::string, std::string> vars;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    const std::string prefix = "export ";
    const auto eq = line.find("='");
    if (line.rfind(prefix, 0) != 0 || eq == std::string::npos || line.size() < eq + 3 || line.back() != '\'') continue;
    std::string value = line.substr(eq + 2, line.size() - eq - 3);
    for (auto pos = value.find("'\\''"); pos != std::string::npos; pos = value.find("'\\''", pos + 1)) value.replace(pos, 4, "'");
    vars[line.substr(prefix.size(), eq - prefix.size())] = value;
  }
  return vars;
}

std::string env_exports_text(const std::map<std::string, std::string>& vars) {
  std::string out;
  for (const auto& [k, v] : vars) {
    std::string quoted;
    for (char ch : v) quoted += ch == '\'' ? std::string("'\\''") : std::string(1, ch);
    out += fmt::format("export {}='{}'\n", k, quoted);
  }
  return out;
}

}  // namespace tfwsl::provision
