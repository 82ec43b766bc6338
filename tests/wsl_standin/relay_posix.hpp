#pragma once
// The Linux side of the wsl.exe stand-in (relay_protocol.hpp): listens on 127.0.0.1, runs each
// relayed `--exec` command with pipes and streams stdin, stdout, stderr and the exit code.
//
// It plays the parts of WSL a test needs: Windows paths seen from the distro (/mnt/z/... is Wine's
// Z:, i.e. /), an environment for the distro (the fake distro's probe root, PATH and TMPDIR,
// fake_distro_posix.hpp), and broken localhost forwarding (the port in the agent's handshake line
// is rewritten to one where nothing listens).

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace tfwsl::standin {

struct RelayOptions {
  std::map<std::string, std::string> env;  // set in every relayed command
  bool block_localhost = false;            // rewrite the handshake's port to a dead one
  int dead_port = 0;                       // that port (0: the relay picks one)
};

class Relay {
 public:
  explicit Relay(RelayOptions options);
  ~Relay();
  Relay(const Relay&) = delete;
  Relay& operator=(const Relay&) = delete;

  int port() const { return m_port; }
  // Each relayed command line, as received (argv joined by spaces), for assertions.
  std::vector<std::string> commands() const;

 private:
  void accept_loop();
  void serve(int fd);

  RelayOptions m_options;
  int m_listen_fd = -1;
  int m_port = 0;
  int m_dead_fd = -1;  // holds options.dead_port when the relay picked it
  std::atomic<bool> m_stopping{false};
  std::thread m_acceptor;
  mutable std::mutex m_mutex;
  std::vector<std::thread> m_workers;
  std::vector<std::string> m_commands;
};

// "/mnt/z/tmp/x" -> "/tmp/x": Wine's Z: drive is the Linux root.
std::string map_distro_path(const std::string& arg);

}  // namespace tfwsl::standin
