#include "linux/provision/apt_sources_state.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>
#include <vector>

namespace tfwsl::provision {
namespace {

void append_file(const std::filesystem::path& file, std::string& out) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  out += file.filename().string();
  out += '\0';
  out += in ? text.str() : std::string("<missing>");
  out += '\0';
}

}  // namespace

std::string apt_sources_fingerprint(const std::filesystem::path& root) {
  std::string out;
  append_file(root / "etc/apt/sources.list", out);
  std::vector<std::filesystem::path> parts;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(root / "etc/apt/sources.list.d", ec))
    parts.push_back(entry.path());
  std::sort(parts.begin(), parts.end());
  for (const auto& part : parts) append_file(part, out);
  return out;
}

}  // namespace tfwsl::provision
