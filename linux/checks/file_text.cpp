#include "linux/checks/file_text.hpp"

#include <fstream>

namespace tfwsl::linux_checks {

std::optional<std::string> read_text_file(const std::filesystem::path& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string out;
  char buf[4096];
  while (in && out.size() < max_bytes) {
    in.read(buf, sizeof buf);
    out.append(buf, static_cast<std::size_t>(in.gcount()));
  }
  if (out.size() > max_bytes) out.resize(max_bytes);
  return out;
}

}  // namespace tfwsl::linux_checks
