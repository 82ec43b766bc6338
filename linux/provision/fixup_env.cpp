#include "linux/provision/fixup_env.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace tfwsl::provision {

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
    for (auto pos = value.find("'\\''"); pos != std::string::npos; pos = value.find("'\\''", pos + 1))
      value.replace(pos, 4, "'");
    vars[line.substr(prefix.size(), eq - prefix.size())] = value;
  }
  return vars;
}

namespace {

constexpr std::string_view k_xla_data_dir_option = "--xla_gpu_cuda_data_dir=";

bool has_control_character(std::string_view text) {
  for (const char ch : text)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == '\x7f') return true;
  return false;
}

}  // namespace

std::string xla_data_dir_flag(const std::string& cuda_dir) { return std::string(k_xla_data_dir_option) + cuda_dir; }

bool is_xla_data_dir_flag(std::string_view value) {
  if (!value.starts_with(k_xla_data_dir_option)) return false;
  const std::string_view dir = value.substr(k_xla_data_dir_option.size());
  return dir.starts_with('/') && !has_control_character(dir);
}

std::map<std::string, std::string> probe_fixups(const std::map<std::string, std::string>& exports,
                                                std::vector<std::string>* dropped) {
  std::map<std::string, std::string> kept;
  for (const auto& [key, value] : exports) {
    const bool ours = key == "XLA_FLAGS";
    if (ours && is_xla_data_dir_flag(value)) {
      kept[key] = value;
    } else if (dropped) {
      dropped->push_back(ours ? fmt::format("{}: not {}<absolute folder>", key, k_xla_data_dir_option)
                              : fmt::format("{}: tfwsl writes no such variable there", key));
    }
  }
  return kept;
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
