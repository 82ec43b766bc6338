#include "linux/provision/passwd_file.hpp"

#include <fmt/format.h>

#include <charconv>
#include <fstream>
#include <vector>

namespace tfwsl::provision {
namespace {

std::optional<unsigned long> parse_id(const std::string& text) {
  unsigned long value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return std::nullopt;
  return value;
}

// One passwd(5) line; nothing for a comment, a short line or a bad uid/gid.
std::optional<DistroUser> parse_passwd_line(const std::string& line) {
  if (line.empty() || line.front() == '#') return std::nullopt;
  std::vector<std::string> fields;
  std::string::size_type start = 0;
  while (true) {
    const auto colon = line.find(':', start);
    fields.push_back(line.substr(start, colon == std::string::npos ? std::string::npos : colon - start));
    if (colon == std::string::npos) break;
    start = colon + 1;
  }
  if (fields.size() < 7 || fields[0].empty()) return std::nullopt;
  const auto uid = parse_id(fields[2]);
  const auto gid = parse_id(fields[3]);
  if (!uid || !gid) return std::nullopt;
  return DistroUser{fields[0], static_cast<uid_t>(*uid), static_cast<gid_t>(*gid), fields[5]};
}

template <typename Wanted>
std::optional<DistroUser> first_passwd_entry(const std::filesystem::path& root, Wanted wanted) {
  std::ifstream in(root / "etc/passwd");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (auto user = parse_passwd_line(line); user && wanted(*user)) return user;
  }
  return std::nullopt;
}

}  // namespace

Result<DistroUser> find_distro_user_in(const std::filesystem::path& root, const std::string& name) {
  auto user = first_passwd_entry(root, [&](const DistroUser& u) { return u.name == name; });
  if (!user)
    return make_error(ErrorCode::not_found,
                      fmt::format("the distro has no user '{}' ({} lists none)", name, (root / "etc/passwd").string()),
                      "create it, or pass --user");
  return *user;
}

std::optional<std::string> first_ordinary_user_in(const std::filesystem::path& root) {
  auto user = first_passwd_entry(root, [](const DistroUser& u) { return u.uid >= 1000 && u.uid < 60000; });
  if (!user) return std::nullopt;
  return user->name;
}

}  // namespace tfwsl::provision
