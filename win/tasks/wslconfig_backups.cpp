#include "win/tasks/wslconfig_backups.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

#include "common/text/utf_convert.hpp"

namespace tfwsl::cli {
namespace {

bool digits(const std::string& s, std::size_t from, std::size_t count) {
  if (from + count > s.size()) return false;
  for (std::size_t i = from; i < from + count; ++i)
    if (!std::isdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

constexpr const char* k_marker = ".tfwsl-backup-";

}  // namespace

bool is_tfwsl_backup_name(const std::string& file_name, const std::string& of_name) {
  const std::string prefix = of_name + k_marker;
  if (file_name.rfind(prefix, 0) != 0) return false;
  const std::string stamp = file_name.substr(prefix.size());  // YYYYMMDD-HHMMSS[-N]
  if (stamp.size() < 15 || !digits(stamp, 0, 8) || stamp[8] != '-' || !digits(stamp, 9, 6)) return false;
  if (stamp.size() == 15) return true;
  return stamp[15] == '-' && stamp.size() > 16 && stamp.size() <= 22 && digits(stamp, 16, stamp.size() - 16);
}

std::vector<WslconfigBackup> list_wslconfig_backups(const std::string& path, const std::optional<AccountId>& owner) {
  const std::filesystem::path target = path_from_utf8(path);
  const std::filesystem::path folder = target.has_parent_path() ? target.parent_path() : std::filesystem::path(".");
  const std::string name = path_to_utf8(target.filename());
  std::vector<WslconfigBackup> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string file = path_to_utf8(it->path().filename());
    // The entry's own status: is_regular_file would follow a link to whatever file it names.
    if (!is_tfwsl_backup_name(file, name) || !std::filesystem::is_regular_file(it->symlink_status(ec))) continue;
    if (owner && owner_of(it->path()) != owner) continue;
    WslconfigBackup b;
    b.path = path_to_utf8(it->path());
    b.stamp = file.substr(name.size() + std::string(k_marker).size());
    b.size = it->file_size(ec);
    out.push_back(std::move(b));
  }
  // "-2" after the same second sorts after it: compare the second, then the counter as a number.
  auto key = [](const WslconfigBackup& b) {
    const std::string second = b.stamp.substr(0, 15);
    const long counter = b.stamp.size() > 16 ? std::stol(b.stamp.substr(16)) : 1;
    return std::make_pair(second, counter);
  };
  std::sort(out.begin(), out.end(), [&key](const auto& a, const auto& b) { return key(b) < key(a); });
  return out;
}

std::vector<std::string> prune_wslconfig_backups(const std::string& path, const std::optional<AccountId>& owner,
                                                 std::size_t keep) {
  std::vector<std::string> removed;
  const auto backups = list_wslconfig_backups(path, owner);
  // The oldest (last) stays: it holds the file as it was before tfwsl first wrote it (issue 43, item 7).
  for (std::size_t i = keep; i + 1 < backups.size(); ++i) {
    std::error_code ec;
    if (std::filesystem::remove(path_from_utf8(backups[i].path), ec)) removed.push_back(backups[i].path);
  }
  return removed;
}

}  // namespace tfwsl::cli
