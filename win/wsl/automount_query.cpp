#include "win/wsl/automount_query.hpp"

#include <spdlog/spdlog.h>

#include <chrono>
#include <string>

#include "common/core/error.hpp"
#include "common/util/ascii.hpp"
#include "common/wsl/drive_path.hpp"

namespace tfwsl::wsl {

std::string query_automount_root(WslClient& wsl, const std::string& distro, char drive) {
  const std::string drive_root = std::string(1, ascii_upper(drive)) + ":\\";
  auto reply = wsl.exec({distro, "", ""}, {"wslpath", "-u", drive_root});
  if (reply && reply->exit_code == 0) {
    if (auto root = automount_root_from_wslpath(reply->text, drive)) return *root;
  }
  const std::string why = !reply ? reply.error().message
                                 : "it answered '" + reply->text.substr(0, 100) + "' " + reply->err_text.substr(0, 200);
  spdlog::warn("wslpath -u '{}' in {} gave no mount point ({}); taking WSL's default {}", drive_root,
               distro.empty() ? std::string("the default distro") : distro, why, k_default_automount_root);
  return k_default_automount_root;
}

std::string local_automount_root(ProcessRunner& runner) {
  auto reply = runner.run({.argv = {"wslpath", "-u", "C:\\"}, .timeout = std::chrono::seconds(10)});
  if (!reply && reply.error().code == ErrorCode::not_found) return k_default_automount_root;  // not WSL
  if (reply && reply->exit_code == 0) {
    if (auto root = automount_root_from_wslpath(reply->out, 'c')) return *root;
  }
  spdlog::warn(
      "wslpath -u 'C:\\' here gave no mount point ({}); taking WSL's default {}",
      reply ? "it answered '" + reply->out.substr(0, 100) + "' " + reply->err.substr(0, 200) : reply.error().message,
      k_default_automount_root);
  return k_default_automount_root;
}

}  // namespace tfwsl::wsl
