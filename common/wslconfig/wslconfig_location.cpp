#include "common/wslconfig/wslconfig_location.hpp"

#include "common/util/ascii.hpp"

namespace tfwsl::wslconfig {
namespace {

constexpr const char* k_pass_file = "pass --file PATH to name the .wslconfig to use";

// A program's first line of output, trimmed; nothing when it failed or printed nothing.
std::optional<std::string> first_line_of(ProcessRunner& runner, std::vector<std::string> argv) {
  ProcessRequest request;
  request.argv = std::move(argv);
  request.timeout = std::chrono::seconds(15);
  // cmd.exe started from a Linux folder warns that UNC paths are not supported; the root of the
  // Windows drive keeps it quiet where it exists.
  request.working_directory = std::filesystem::path("/");
  auto outcome = runner.run(request);
  if (!outcome || outcome->exit_code != 0 || outcome->timed_out) return std::nullopt;
  const std::string& out = outcome->out;
  const std::string line(trim(std::string_view(out).substr(0, out.find('\n'))));
  if (line.empty()) return std::nullopt;
  return line;
}

Result<std::string> through_interop(ProcessRunner& runner) {
  auto profile = first_line_of(runner, {"cmd.exe", "/C", "echo %USERPROFILE%"});
  if (!profile || profile->find('%') != std::string::npos)
    return make_error(ErrorCode::not_found,
                      std::string("inside WSL, but Windows interop did not say where your Windows profile is "
                                  "(cmd.exe /C echo %USERPROFILE%): ") +
                          k_pass_file);
  auto linux_path = first_line_of(runner, {"wslpath", "-u", *profile});
  if (!linux_path)
    return make_error(ErrorCode::not_found,
                      "wslpath -u could not map the Windows profile " + *profile + ": " + k_pass_file);
  return *linux_path + "/.wslconfig";
}

}  // namespace

std::optional<std::string> windows_wslconfig_path(const EnvironmentLookup& getenv) {
  if (auto configured = getenv(k_wslconfig_env)) return *configured;
  if (auto profile = getenv("USERPROFILE")) return *profile + "\\.wslconfig";
  return std::nullopt;
}

Result<std::string> locate_wslconfig(const EnvironmentLookup& getenv, ProcessRunner& runner, bool is_windows) {
  if (is_windows) {
    if (auto path = windows_wslconfig_path(getenv)) return *path;
    return make_error(ErrorCode::not_found, std::string("USERPROFILE is not set: ") + k_pass_file);
  }
  if (auto configured = getenv(k_wslconfig_env)) return *configured;
  if (getenv("WSL_DISTRO_NAME")) return through_interop(runner);
  return make_error(ErrorCode::not_found,
                    std::string("on Linux outside WSL there is no %UserProfile%\\.wslconfig: ") + k_pass_file);
}

namespace {

bool sid_starts_with(std::string_view sid, std::string_view prefix) { return sid.substr(0, prefix.size()) == prefix; }

bool ends_with_folder(const std::string& profile, std::string_view tail) {
  std::string lower = ascii_lower(profile);
  for (char& c : lower)
    if (c == '/') c = '\\';
  while (!lower.empty() && lower.back() == '\\') lower.pop_back();
  return lower.size() >= tail.size() && lower.compare(lower.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_system(const ProfileAccount& account) {
  return account.sid == "S-1-5-18" || ends_with_folder(account.profile, "\\system32\\config\\systemprofile");
}

// LocalService, NetworkService, per-service virtual accounts (NT SERVICE\...), IIS application pools.
bool is_service_account(const ProfileAccount& account) {
  return account.sid == "S-1-5-19" || account.sid == "S-1-5-20" || sid_starts_with(account.sid, "S-1-5-80-") ||
         sid_starts_with(account.sid, "S-1-5-82-") ||
         ascii_lower(account.profile).find("\\serviceprofiles\\") != std::string::npos;
}

constexpr const char* k_run_as_user =
    "WSL reads the .wslconfig of the user who runs it: run this as that user (a fleet engine: the resource's user "
    "context, docs/fleet.md), or name the user's file (--file C:\\Users\\NAME\\.wslconfig; DSC: \"file\")";

}  // namespace

std::optional<std::string> not_a_users_wslconfig(const ProfileAccount& account) {
  if (is_system(account))
    return "this runs as SYSTEM, whose profile (" + account.profile +
           ") is no user's and WSL never reads its .wslconfig: " + k_run_as_user;
  if (is_service_account(account) && !account.has_wsl_registration)
    return "this runs as the service account " + account.sid + " (profile " + account.profile +
           "), for which WSL has no distribution registered, so WSL never reads its .wslconfig: " + k_run_as_user;
  return std::nullopt;
}

}  // namespace tfwsl::wslconfig
