#pragma once
// Starts the real tfwsl-agent (serve --listen 127.0.0.1:0 --stdio-handshake), hands it the token on
// stdin, reads the handshake line, and talks raw HTTP to it. Its stderr goes to a log file the
// tests can search (for the token, which must never be there).

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tfwsl::test {

std::string random_token();  // 64 hex digits from /dev/urandom

class AgentProcess {
 public:
  // extra: more arguments after "serve --listen 127.0.0.1:0 --stdio-handshake".
  explicit AgentProcess(std::vector<std::string> extra = {}, std::string token = random_token());
  ~AgentProcess();
  AgentProcess(const AgentProcess&) = delete;
  AgentProcess& operator=(const AgentProcess&) = delete;

  const std::string& token() const { return m_token; }
  int port() const { return m_port; }
  pid_t pid() const { return m_pid; }
  const nlohmann::json& handshake() const { return m_handshake; }
  std::filesystem::path log_path() const { return m_log; }
  bool alive() const;
  int stdin_fd() const { return m_stdin; }
  int stdout_fd() const { return m_stdout; }
  // Closes stdin and waits for the exit status (nothing if it did not exit within the limit).
  std::optional<int> close_stdin_and_wait(std::chrono::seconds limit = std::chrono::seconds(10));

  std::string host() const { return "127.0.0.1:" + std::to_string(m_port); }
  std::string auth() const { return "Authorization: Bearer " + m_token + "\r\n"; }

 private:
  std::string m_token;
  pid_t m_pid = -1;
  int m_stdin = -1, m_stdout = -1;
  int m_port = 0;
  nlohmann::json m_handshake;
  std::filesystem::path m_log;
};

// Runs `args` (argv[0] = the agent) with `stdin_data`, returns {exit code, stderr+stdout}.
std::pair<int, std::string> run_agent(const std::vector<std::string>& args, const std::string& stdin_data);

// Runs `args` (argv[0] = the agent) with `stdin_data` then EOF on stdin, draining its stdout; the exit
// code, or nothing when it had not exited within `limit` (it is then killed).
std::optional<int> run_agent_for(const std::vector<std::string>& args, const std::string& stdin_data,
                                 std::chrono::milliseconds limit);

// Runs `args` (argv[0] = the agent), waits for its handshake line on stdout, sends it `signal` at
// once, and returns the exit code; nothing when there was no handshake within 10 s or no exit within
// `limit` of the signal (it is then killed).
std::optional<int> signal_after_handshake(const std::vector<std::string>& args, int signal,
                                          std::chrono::milliseconds limit);

// A stand-in "python" in `dir` for the TensorFlow probe: "--version" answers at once; any other call
// appends a line to dir/runs, sleeps as many seconds as dir/slow holds (when it exists; the sleep's
// pid goes to dir/pids), then prints a "TensorFlow not installed" answer. Returns its path.
std::filesystem::path write_fake_python(const std::filesystem::path& dir);
int count_lines(const std::filesystem::path& file);    // 0 when it does not exist
void kill_pids_in(const std::filesystem::path& file);  // SIGKILL to each pid listed, one per line

// Sends bytes on a fresh connection to 127.0.0.1:port and reads until the server closes (or the
// limit). Empty when the connection was refused or reset before any answer.
std::string raw_exchange(int port, const std::string& bytes,
                         std::chrono::milliseconds limit = std::chrono::seconds(15));
int status_of(const std::string& response);           // 0 when there is no status line
nlohmann::json body_of(const std::string& response);  // the JSON body, null when none
int connect_loopback(int port);                       // a connected socket, or -1

}  // namespace tfwsl::test
