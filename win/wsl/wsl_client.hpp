#pragma once
// The wsl.exe driver: every call tfwsl makes to wsl.exe, as argv vectors through the process port.
//
// - WSL_UTF8=1 is set in the child's environment, and the output is still decoded as UTF-16LE when
//   it arrives that way: wsl.exe builds older than 0.64 ignore the variable.
// - Every call has a timeout (a hung WSL service is a real failure mode).
// - Management calls (-l -v, --status, --version, ...) come back with their decoded text and a
//   classification of any failure (wsl_failure.hpp); --exec calls come back with the Linux
//   program's own bytes and exit code.
// - starts() counts wsl.exe processes: each one costs real time on Windows (the first boots the VM).

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"
#include "common/process/process_runner.hpp"
#include "common/text/console_decoder.hpp"
#include "win/wsl/wsl_failure.hpp"

namespace tfwsl::wsl {

// The environment variable that names another wsl.exe (tests point it at the stand-in).
inline constexpr const char* k_wsl_exe_env = "TFWSL_WSL_EXE";

struct WslSettings {
  std::string exe = "wsl.exe";                                          // full path normally (locate_wsl_exe)
  std::chrono::milliseconds timeout{std::chrono::seconds(30)};          // management calls
  std::chrono::milliseconds exec_timeout{std::chrono::seconds(120)};    // --exec calls
  std::chrono::milliseconds install_timeout{std::chrono::minutes(30)};  // --install downloads
};

// wsl.exe's location: TFWSL_WSL_EXE when set, else %SystemRoot%\System32\wsl.exe.
// `getenv` is a parameter so tests can supply an environment.
std::string locate_wsl_exe(const std::function<std::optional<std::string>(const std::string&)>& getenv);
std::optional<std::string> process_environment_variable(const std::string& name);
WslSettings wsl_settings_from_environment();

struct WslReply {
  long long exit_code = 0;
  std::string text;                                  // stdout decoded to UTF-8 (management calls) or raw (exec)
  std::string err_text;                              // stderr decoded to UTF-8
  ConsoleEncoding encoding = ConsoleEncoding::utf8;  // how stdout arrived
  WslFailure failure;                                // kind none when the call succeeded (management calls only)
  std::chrono::milliseconds elapsed{0};
};

struct ExecTarget {
  std::string distro;  // empty: the default distribution
  std::string user;    // empty: the distro's default user
  std::string cd;      // empty: not given
};

class WslClient {
 public:
  WslClient(ProcessRunner& runner, WslSettings settings);

  // Errors only when wsl.exe could not be started or timed out; a wsl.exe that answered with an
  // error is a reply whose `failure` says what it meant.
  Result<WslReply> list_verbose();
  Result<WslReply> status();
  Result<WslReply> version();
  Result<WslReply> shutdown();
  // `--list --running --quiet`: the running distributions, one name a line (none: a message and,
  // on most builds, a nonzero exit; the caller reads the names).
  Result<WslReply> list_running();
  Result<WslReply> terminate(const std::string& distro);
  Result<WslReply> install(const std::string& distro);  // --install -d D --no-launch

  // Runs a Linux program; reply.text holds its stdout bytes as written, exit_code its exit code.
  // `on_stderr` sees its stderr as it comes (raw bytes: a Linux program's, not wsl.exe's UTF-16).
  Result<WslReply> exec(const ExecTarget& target, const std::vector<std::string>& linux_argv,
                        std::optional<std::string> stdin_data = std::nullopt,
                        std::optional<std::chrono::milliseconds> timeout = std::nullopt,
                        std::function<void(std::string_view)> on_stderr = {});

  // The argv of such a call, for long-lived children started elsewhere (the agent bridge).
  std::vector<std::string> exec_argv(const ExecTarget& target, const std::vector<std::string>& linux_argv) const;
  // The environment every wsl.exe child gets.
  static std::map<std::string, std::string> child_environment();

  const WslSettings& settings() const { return m_settings; }
  int starts() const { return m_starts.load(); }
  void count_start() { ++m_starts; }  // for children started outside run()

 private:
  Result<WslReply> manage(std::vector<std::string> args, std::chrono::milliseconds timeout);

  ProcessRunner& m_runner;
  WslSettings m_settings;
  std::atomic<int> m_starts{0};
};

// A reply whose call failed, as an Error naming the command and carrying the fix.
Error to_error(const WslFailure& failure);

// The driver's error messages end with their fix after this separator ("...; fix: run ..."), so
// one message reads whole where it is printed as is; a report that has a fix line of its own splits
// it (split_fix) and prints the fix once.
inline constexpr const char* k_fix_separator = "; fix: ";
struct MessageAndFix {
  std::string message;  // what happened
  std::string fix;      // empty when the message names none
};
MessageAndFix split_fix(const std::string& error_message);

}  // namespace tfwsl::wsl
