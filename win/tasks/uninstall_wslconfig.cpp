#include "win/tasks/uninstall_wslconfig.hpp"

#include <filesystem>
#include <system_error>

#include "common/text/utf_convert.hpp"
#include "common/util/privileged_target.hpp"
#include "win/tasks/wslconfig_backups.hpp"
#include "win/tasks/wslconfig_file.hpp"

namespace tfwsl::cli {
namespace {

using agent_service::Leftover;

Leftover host_item(std::string what, std::string path, bool remove, std::string why) {
  Leftover l;
  l.what = std::move(what);
  l.where = "on Windows";
  l.path = std::move(path);
  l.remove = remove;
  l.why = std::move(why);
  return l;
}

std::filesystem::file_status own_status(const std::string& path) {
  std::error_code ec;
  return std::filesystem::symlink_status(path_from_utf8(path), ec);
}

}  // namespace

std::vector<Leftover> wslconfig_leftovers(const std::string& path) {
  std::vector<Leftover> out;
  auto ownership = judge_write_target(path_from_utf8(path));
  if (!ownership) {
    out.push_back(host_item(".wslconfig's backups", path, false, "not looked at: " + ownership.error().describe()));
    return out;
  }
  const std::string target = wslconfig_link_target(path).value_or(path);
  if (std::filesystem::exists(own_status(path)))
    out.push_back(host_item(".wslconfig", path, false, "your file: what tfwsl set in it stays"));
  const auto backups = list_wslconfig_backups(target, ownership->owner);
  for (std::size_t i = 0; i < backups.size(); ++i) {
    const bool original = i + 1 == backups.size();
    Leftover l = host_item(".wslconfig backup of " + backups[i].stamp, backups[i].path, !original,
                           original ? "the original, as it was before tfwsl first wrote it: `tfwsl wslconfig restore " +
                                          std::to_string(i + 1) +
                                          " --yes` puts it back (before tfwsl is uninstalled), "
                                          "or copy it over .wslconfig"
                                    : "a backup tfwsl wslconfig made (its name)");
    l.size = backups[i].size;
    out.push_back(std::move(l));
  }
  const std::string lock = target + ".tfwsl-lock";
  const auto lock_status = own_status(lock);
  if (std::filesystem::is_regular_file(lock_status))
    out.push_back(host_item(".wslconfig's lock file", lock, true, "the lock tfwsl wslconfig takes (its name)"));
  else if (std::filesystem::exists(lock_status) || std::filesystem::is_symlink(lock_status))
    out.push_back(host_item("a link or other entry", lock, false, "not a regular file: not followed, not removed"));
  return out;
}

Status remove_host_leftover(const Leftover& item) {
  if (!std::filesystem::is_regular_file(own_status(item.path)))
    return make_error(ErrorCode::conflict, item.path + " is no regular file now: left alone");
  std::error_code ec;
  std::filesystem::remove(path_from_utf8(item.path), ec);
  if (ec) return make_error(ErrorCode::io, "removing " + item.path + " failed: " + ec.message());
  return {};
}

}  // namespace tfwsl::cli
