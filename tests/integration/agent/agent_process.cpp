#include "tests/integration/agent/agent_process.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "tests/support/test_environment.hpp"

namespace tfwsl::test {

std::string random_token() {
  std::ifstream in("/dev/urandom", std::ios::binary);
  unsigned char bytes[32];
  in.read(reinterpret_cast<char*>(bytes), sizeof bytes);
  std::string out;
  char hex[3];
  for (auto b : bytes) {
    std::snprintf(hex, sizeof hex, "%02x", b);
    out += hex;
  }
  return out;
}

namespace {

std::filesystem::path fresh_log_path() {
  static int counter = 0;
  return std::filesystem::temp_directory_path() /
         ("tfwsl-agent-test-" + std::to_string(getpid()) + "-" + std::to_string(counter++) + ".log");
}

pid_t spawn(const std::vector<std::string>& args, int& in_fd, int& out_fd, const std::filesystem::path& log) {
  int in_pipe[2], out_pipe[2];
  if (pipe(in_pipe) != 0 || pipe(out_pipe) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = fork();
  if (pid == 0) {
    dup2(in_pipe[0], 0);
    dup2(out_pipe[1], 1);
    int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(log_fd, 2);
    close(in_pipe[1]);
    close(out_pipe[0]);
    std::vector<char*> argv;
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(in_pipe[0]);
  close(out_pipe[1]);
  in_fd = in_pipe[1];
  out_fd = out_pipe[0];
  return pid;
}

std::string read_line(int fd, std::chrono::milliseconds limit) {
  std::string line;
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    char c;
    if (::read(fd, &c, 1) != 1) break;
    if (c == '\n') return line;
    line.push_back(c);
  }
  return line;
}

}  // namespace

AgentProcess::AgentProcess(std::vector<std::string> extra, std::string token) : m_token(std::move(token)) {
  ::signal(SIGPIPE, SIG_IGN);
  m_log = fresh_log_path();
  std::vector<std::string> args{TFWSL_AGENT_BINARY, "--log-level",      "debug", "serve", "--listen",
                                "127.0.0.1:0",      "--stdio-handshake"};
  args.insert(args.end(), extra.begin(), extra.end());
  m_pid = spawn(args, m_stdin, m_stdout, m_log);
  auto line = m_token + "\n";
  if (::write(m_stdin, line.data(), line.size()) != static_cast<ssize_t>(line.size()))
    throw std::runtime_error("write token");
  auto hello = read_line(m_stdout, std::chrono::seconds(20));
  m_handshake = nlohmann::json::parse(hello, nullptr, false);
  if (!m_handshake.is_object() || !m_handshake.contains("port"))
    throw std::runtime_error("no handshake line from the agent: '" + hello + "'; log: " + read_file(m_log));
  m_port = m_handshake["port"].get<int>();
}

AgentProcess::~AgentProcess() {
  if (m_pid > 0 && alive()) {
    kill(m_pid, SIGKILL);
    waitpid(m_pid, nullptr, 0);
  }
  if (m_stdin >= 0) close(m_stdin);
  if (m_stdout >= 0) close(m_stdout);
  std::error_code ec;
  std::filesystem::remove(m_log, ec);
}

bool AgentProcess::alive() const {
  int status = 0;
  return m_pid > 0 && waitpid(m_pid, &status, WNOHANG) == 0;
}

std::optional<int> AgentProcess::close_stdin_and_wait(std::chrono::seconds limit) {
  close(m_stdin);
  m_stdin = -1;
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    int status = 0;
    if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
      m_pid = -1;
      return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return std::nullopt;
}

std::pair<int, std::string> run_agent(const std::vector<std::string>& args, const std::string& stdin_data) {
  auto log = fresh_log_path();
  int in_fd = -1, out_fd = -1;
  auto full = args;
  full.insert(full.begin(), TFWSL_AGENT_BINARY);
  // An agent that refuses to start may exit before it reads stdin: a write then gets EPIPE, not a
  // SIGPIPE that would kill the test.
  ::signal(SIGPIPE, SIG_IGN);
  pid_t pid = spawn(full, in_fd, out_fd, log);
  if (!stdin_data.empty()) (void)!::write(in_fd, stdin_data.data(), stdin_data.size());
  close(in_fd);
  std::string out;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(out_fd, buf, sizeof buf)) > 0) out.append(buf, static_cast<std::size_t>(n));
  close(out_fd);
  int status = 0;
  waitpid(pid, &status, 0);
  out += read_file(log);
  std::error_code ec;
  std::filesystem::remove(log, ec);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status), out};
}

std::optional<int> run_agent_for(const std::vector<std::string>& args, const std::string& stdin_data,
                                 std::chrono::milliseconds limit) {
  auto log = fresh_log_path();
  int in_fd = -1, out_fd = -1;
  auto full = args;
  full.insert(full.begin(), TFWSL_AGENT_BINARY);
  ::signal(SIGPIPE, SIG_IGN);
  pid_t pid = spawn(full, in_fd, out_fd, log);
  if (!stdin_data.empty()) (void)!::write(in_fd, stdin_data.data(), stdin_data.size());
  close(in_fd);
  std::optional<int> code;
  auto deadline = std::chrono::steady_clock::now() + limit;
  char buf[4096];
  bool out_open = true;
  while (!code && std::chrono::steady_clock::now() < deadline) {
    pollfd p{out_fd, POLLIN, 0};
    if (!out_open)
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    else if (poll(&p, 1, 5) > 0 && ::read(out_fd, buf, sizeof buf) <= 0)
      out_open = false;
    int status = 0;
    if (waitpid(pid, &status, WNOHANG) == pid) code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  if (!code) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  close(out_fd);
  std::error_code ec;
  std::filesystem::remove(log, ec);
  return code;
}

std::optional<int> signal_after_handshake(const std::vector<std::string>& args, int signal,
                                          std::chrono::milliseconds limit) {
  auto log = fresh_log_path();
  int in_fd = -1, out_fd = -1;
  auto full = args;
  full.insert(full.begin(), TFWSL_AGENT_BINARY);
  ::signal(SIGPIPE, SIG_IGN);
  pid_t pid = spawn(full, in_fd, out_fd, log);
  auto hello = read_line(out_fd, std::chrono::seconds(10));
  std::optional<int> code;
  if (hello.find("\"port\"") != std::string::npos) {
    kill(pid, signal);
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (!code && std::chrono::steady_clock::now() < deadline) {
      int status = 0;
      if (waitpid(pid, &status, WNOHANG) == pid)
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  }
  if (!code) {
    kill(pid, SIGKILL);
    waitpid(pid, nullptr, 0);
  }
  close(in_fd);
  close(out_fd);
  std::error_code ec;
  std::filesystem::remove(log, ec);
  return code;
}

std::filesystem::path write_fake_python(const std::filesystem::path& dir) {
  auto d = dir.string();
  auto path = dir / "python";
  write_file(path,
             "#!/bin/sh\n"
             "if [ \"$1\" = --version ]; then echo 'Python 3.10.12'; exit 0; fi\n"
             "echo run >> '" +
                 d +
                 "/runs'\n"
                 "if [ -e '" +
                 d +
                 "/slow' ]; then\n"
                 "  sleep \"$(cat '" +
                 d + "/slow')\" & echo $! >> '" + d +
                 "/pids'; wait\n"
                 "fi\n"
                 "echo '{\"installed\": false}'\n");
  ::chmod(path.c_str(), 0755);
  return path;
}

int count_lines(const std::filesystem::path& file) {
  auto text = std::filesystem::exists(file) ? read_file(file) : std::string();
  return static_cast<int>(std::count(text.begin(), text.end(), '\n'));
}

void kill_pids_in(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) return;
  std::istringstream lines(read_file(file));
  for (long pid = 0; lines >> pid;)
    if (pid > 1) kill(static_cast<pid_t>(pid), SIGKILL);
}

int connect_loopback(int port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    close(fd);
    return -1;
  }
  return fd;
}

std::string raw_exchange(int port, const std::string& bytes, std::chrono::milliseconds limit) {
  int fd = connect_loopback(port);
  if (fd < 0) return {};
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    auto n = send(fd, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) break;  // the server may close early (e.g. refusing headers): read what it said
    sent += static_cast<std::size_t>(n);
  }
  std::string out;
  auto deadline = std::chrono::steady_clock::now() + limit;
  char buf[8192];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{fd, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    auto n = recv(fd, buf, sizeof buf, 0);
    if (n <= 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  close(fd);
  return out;
}

int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.1 ", 0) != 0 || response.size() < 12) return 0;
  return std::stoi(response.substr(9, 3));
}

nlohmann::json body_of(const std::string& response) {
  auto gap = response.find("\r\n\r\n");
  if (gap == std::string::npos) return nullptr;
  auto j = nlohmann::json::parse(response.substr(gap + 4), nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

}  // namespace tfwsl::test
