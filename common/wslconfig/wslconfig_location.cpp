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
                                  "(cmd.exe /C echo %USERPROFILE%): ") + k_pass_file);
  auto linux_path = first_line_of(runner, {"wslpath", "-u", *profile});
  if (!linux_path)
    return make_error(ErrorCode::not_found, "wslpath -u could not map the Windows profile " + *profile + ": " + k_pass_file);
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

}  // namespace tfwsl::wslconfig
