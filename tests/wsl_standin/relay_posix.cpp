#include "tests/wsl_standin/relay_posix.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <nlohmann/json.hpp>

#include "tests/wsl_standin/relay_protocol.hpp"

extern char** environ;

namespace tfwsl::standin {
namespace {

bool send_all(int fd, const std::string& bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::send(fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

// Ends a connection as wsl.exe's does: the stand-in reads to the exit frame and closes. A close()
// with bytes still unread makes the kernel send a reset instead of the end of the stream, and the
// stand-in, under Wine, then lost the frames already sent: its recv failed, it exited 1 with no
// output, and tfwsl.exe saw a distro command fail ("no home folder ($HOME)", a folder "gone"). The
// stand-in's last stdin frame (its stdin's end) can arrive after a quick command has ended, so
// that happened on fast machines (docs/building.md, "Relayed output lost to a reset"). So: no more
// writes, then what the stand-in still sends is read and dropped until it closes (bounded).
void close_gracefully(int fd) {
  ::shutdown(fd, SHUT_WR);
  const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  char sink[4096];
  while (std::chrono::steady_clock::now() < until) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 100) < 0 && errno != EINTR) break;
    if (p.revents && ::recv(fd, sink, sizeof sink, 0) <= 0) break;
  }
  ::close(fd);
}

// A TCP socket bound to 127.0.0.1 at a port the kernel picks (its number in port), or -1.
int bind_loopback(int& port, bool reuse_address) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  int one = 1;
  if (reuse_address) ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  if (::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0) {
    ::close(fd);
    return -1;
  }
  socklen_t len = sizeof addr;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len);
  port = ntohs(addr.sin_port);
  return fd;
}

int listen_loopback(int& port) {
  int fd = bind_loopback(port, true);
  if (fd >= 0 && ::listen(fd, 16) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// A port with nothing listening on it, kept so: bound without listen() and held for the relay's
// lifetime (no SO_REUSEADDR), so that nothing else can take it. Closing it at once, as before, let
// the kernel hand the same port to the agent binding 127.0.0.1:0 a moment later, and the "blocked"
// scenario reached the agent after all (a fresh-root CI run, 2026-12-05). A connect() to it is refused.
int reserve_dead_port(int& port) { return bind_loopback(port, false); }

std::string rewrite_port(const std::string& line, int port) {
  auto j = nlohmann::json::parse(line, nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("port")) return line;
  j["port"] = port;
  return j.dump();
}

}  // namespace

std::string map_distro_path(const std::string& arg) {
  if (arg.rfind("/mnt/z/", 0) == 0) return arg.substr(6);
  return arg;
}

Relay::Relay(RelayOptions options) : m_options(std::move(options)) {
  if (m_options.block_localhost && m_options.dead_port == 0) m_dead_fd = reserve_dead_port(m_options.dead_port);
  m_listen_fd = listen_loopback(m_port);
  m_acceptor = std::thread([this] { accept_loop(); });
}

Relay::~Relay() {
  m_stopping = true;
  ::shutdown(m_listen_fd, SHUT_RDWR);
  ::close(m_listen_fd);
  if (m_dead_fd >= 0) ::close(m_dead_fd);
  if (m_acceptor.joinable()) m_acceptor.join();
  std::lock_guard lock(m_mutex);
  for (auto& t : m_workers) t.detach();  // a worker ends when its command does
}

std::vector<std::string> Relay::commands() const {
  std::lock_guard lock(m_mutex);
  return m_commands;
}

void Relay::accept_loop() {
  while (!m_stopping) {
    int fd = ::accept4(m_listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
    if (fd < 0) {
      if (m_stopping) return;
      continue;
    }
    std::lock_guard lock(m_mutex);
    m_workers.emplace_back([this, fd] { serve(fd); });
  }
}

void Relay::serve(int fd) {
  // The header line.
  std::string buffer;
  char chunk[4096];
  std::size_t nl;
  while ((nl = buffer.find('\n')) == std::string::npos) {
    ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return (void)::close(fd);
    buffer.append(chunk, static_cast<std::size_t>(n));
  }
  auto header = nlohmann::json::parse(buffer.substr(0, nl), nullptr, false);
  buffer.erase(0, nl + 1);
  std::vector<std::string> argv;
  if (!header.is_discarded()) {
    for (const auto& a : header.value("argv", nlohmann::json::array()))
      argv.push_back(map_distro_path(a.get<std::string>()));
  }
  std::string joined;
  for (const auto& a : argv) joined += (joined.empty() ? "" : " ") + a;
  {
    std::lock_guard lock(m_mutex);
    m_commands.push_back(joined);
  }
  auto finish = [&](int code, const std::string& message) {
    if (!message.empty()) send_all(fd, encode_relay_frame(k_frame_stderr, message));
    std::string c(4, '\0');
    for (int i = 0; i < 4; ++i) c[i] = static_cast<char>((static_cast<std::uint32_t>(code) >> (8 * i)) & 0xFF);
    send_all(fd, encode_relay_frame(k_frame_exit, c));
    close_gracefully(fd);
  };
  if (argv.empty()) return finish(1, "relay: no command\n");

  int in_pipe[2], out_pipe[2], err_pipe[2];
  if (::pipe2(in_pipe, O_CLOEXEC) || ::pipe2(out_pipe, O_CLOEXEC) || ::pipe2(err_pipe, O_CLOEXEC))
    return finish(1, "relay: pipe failed\n");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_pipe[0], 0);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2);
  std::string cd = header.is_discarded() ? "" : map_distro_path(header.value("cd", ""));
  if (!cd.empty()) posix_spawn_file_actions_addchdir_np(&actions, cd.c_str());
  // The distro's environment: ours, plus what the scenario sets (PATH first for a fake nvidia-smi).
  std::map<std::string, std::string> env_map;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    auto eq = kv.find('=');
    if (eq != std::string::npos) env_map[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  for (const auto& [k, v] : m_options.env) env_map[k] = (k == "PATH" ? v + ":" + env_map["PATH"] : v);
  std::vector<std::string> env_strings;
  for (const auto& [k, v] : env_map) env_strings.push_back(k + "=" + v);
  std::vector<char*> envp, cargv;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  for (auto& s : argv) cargv.push_back(s.data());
  cargv.push_back(nullptr);
  // A command of tfwsl run's (its activation script is named tfwsl-run) leads a process group of its
  // own, as a terminal's foreground job does in WSL: the stand-in's Ctrl-C reaches the whole group.
  const bool job = std::find(argv.begin(), argv.end(), "tfwsl-run") != argv.end();
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  if (job) {
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
  }
  pid_t pid = 0;
  int rc = ::posix_spawnp(&pid, cargv[0], &actions, &attributes, cargv.data(), envp.data());
  posix_spawnattr_destroy(&attributes);
  posix_spawn_file_actions_destroy(&actions);
  ::close(in_pipe[0]);
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (rc != 0) {
    ::close(in_pipe[1]);
    ::close(out_pipe[0]);
    ::close(err_pipe[0]);
    // What WSL prints when --exec names a program that does not exist.
    return finish(1, "<3>WSL (" + std::to_string(::getpid()) + ") ERROR: CreateProcessCommon:640: execvpe(" + argv[0] +
                         ") failed: " + std::strerror(rc) + "\n");
  }
  int child_in = in_pipe[1];
  // Frames already received with the header.
  std::string frames = buffer;
  bool out_open = true, err_open = true, sock_open = true;
  bool handshake_seen = !m_options.block_localhost;
  std::string first_line;
  auto feed_frames = [&]() {
    while (frames.size() >= 5) {
      std::uint32_t n = decode_le32(frames.data() + 1);
      if (frames.size() < 5 + n) break;
      if (frames[0] == k_frame_interrupt) {
        if (job) ::kill(-pid, SIGINT);
      } else if (frames[0] == k_frame_stdin) {
        if (n == 0) {
          if (child_in >= 0) ::close(child_in), child_in = -1;
        } else if (child_in >= 0) {
          std::size_t done = 0;
          while (done < n) {
            ssize_t w = ::write(child_in, frames.data() + 5 + done, n - done);
            if (w <= 0) break;
            done += static_cast<std::size_t>(w);
          }
        }
      }
      frames.erase(0, 5 + n);
    }
  };
  feed_frames();
  while (out_open || err_open) {
    pollfd fds[3] = {{out_pipe[0], POLLIN, 0}, {err_pipe[0], POLLIN, 0}, {sock_open ? fd : -1, POLLIN, 0}};
    if (!out_open) fds[0].fd = -1;
    if (!err_open) fds[1].fd = -1;
    if (::poll(fds, 3, 1000) < 0) break;
    if (fds[0].revents) {
      ssize_t n = ::read(out_pipe[0], chunk, sizeof chunk);
      if (n <= 0) {
        out_open = false;
        if (!handshake_seen && !first_line.empty()) send_all(fd, encode_relay_frame(k_frame_stdout, first_line));
      } else if (!handshake_seen) {
        first_line.append(chunk, static_cast<std::size_t>(n));
        auto end = first_line.find('\n');
        if (end != std::string::npos) {
          std::string rest = first_line.substr(end);
          std::string line = rewrite_port(first_line.substr(0, end), m_options.dead_port);
          send_all(fd, encode_relay_frame(k_frame_stdout, line + rest));
          handshake_seen = true;
        }
      } else {
        send_all(fd, encode_relay_frame(k_frame_stdout, std::string(chunk, static_cast<std::size_t>(n))));
      }
    }
    if (fds[1].revents) {
      ssize_t n = ::read(err_pipe[0], chunk, sizeof chunk);
      if (n <= 0)
        err_open = false;
      else
        send_all(fd, encode_relay_frame(k_frame_stderr, std::string(chunk, static_cast<std::size_t>(n))));
    }
    if (sock_open && fds[2].revents) {
      ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
      if (n <= 0) {
        // The stand-in went away (tfwsl.exe exited): like wsl.exe dying, the Linux side sees EOF.
        sock_open = false;
        if (child_in >= 0) ::close(child_in), child_in = -1;
      } else {
        frames.append(chunk, static_cast<std::size_t>(n));
        feed_frames();
      }
    }
  }
  if (child_in >= 0) ::close(child_in);
  ::close(out_pipe[0]);
  ::close(err_pipe[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  int code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  finish(code, "");
}

}  // namespace tfwsl::standin
