#pragma once
// Fakes for the agent bridge's ports (win/agent_client): a scripted agent child (ChildChannel)
// that answers the handshake once it has read the token line and then answers stdio frames from a
// table, a launcher that hands out such children in order, and a loopback connector whose
// "127.0.0.1:<port>" is an agent that proves the token, a dead port, or an impostor.

#include <condition_variable>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/agent_api/challenge.hpp"
#include "common/agent_api/frame_codec.hpp"
#include "common/agent_api/handshake.hpp"
#include "win/agent_client/agent_transport.hpp"
#include "win/agent_client/child_channel.hpp"

namespace tfwsl::test {

// What one scripted child does, and what it saw (shared with the test after the bridge owns the child).
struct AgentChildScript {
  std::optional<agent_api::HandshakeLine> handshake;  // sent after the token line; nothing: see below
  bool exits_at_once = false;                         // no handshake, stdout ends at once (a missing program)
  std::string stderr_text;
  std::map<std::string, std::pair<int, nlohmann::json>> answers;  // stdio frames: path -> (status, body)
  std::set<std::string> silent_paths;                             // requests never answered

  // Seen:
  std::vector<std::string> argv;
  std::string stdin_bytes;
  std::vector<std::string> frame_paths;
  bool finished = false;

  std::string token_line() const { return stdin_bytes.substr(0, stdin_bytes.find('\n')); }
};

inline std::shared_ptr<AgentChildScript> agent_child(const std::string& version, int port) {
  auto s = std::make_shared<AgentChildScript>();
  agent_api::HandshakeLine line;
  line.agent = version;
  line.pid = 4321;
  line.port = port;
  s->handshake = line;
  s->answers["/v1/info"] = {200, {{"agent", version}, {"via", "stdio"}}};
  return s;
}

// What wsl.exe prints when --exec names a program that is not there.
inline std::shared_ptr<AgentChildScript> missing_agent_child() {
  auto s = std::make_shared<AgentChildScript>();
  s->exits_at_once = true;
  s->stderr_text =
      "<3>WSL (123) ERROR: CreateProcessCommon:640: execvpe(/usr/local/lib/tfwsl/tfwsl-agent) failed: "
      "No such file or directory\n";
  return s;
}

// Starts and then says nothing at all.
inline std::shared_ptr<AgentChildScript> silent_agent_child() { return std::make_shared<AgentChildScript>(); }

class ScriptedAgentChild final : public agent_client::ChildChannel {
 public:
  explicit ScriptedAgentChild(std::shared_ptr<AgentChildScript> script)
      : m_script(std::move(script)), m_decoder(1 << 20) {
    if (m_script->exits_at_once) m_eof = true;
  }

  Status write(std::string_view bytes) override {
    std::lock_guard lock(m_mutex);
    if (m_eof) return make_error(ErrorCode::io, "could not write to the agent (it has exited)");
    m_script->stdin_bytes.append(bytes);
    if (!m_token_seen) {
      auto nl = m_script->stdin_bytes.find('\n');
      if (nl == std::string::npos) return {};
      m_token_seen = true;
      if (m_script->handshake) m_stdout += agent_api::format_handshake_line(*m_script->handshake) + "\n";
      m_decoder.feed(std::string_view(m_script->stdin_bytes).substr(nl + 1));
    } else {
      m_decoder.feed(bytes);
    }
    answer_frames();
    m_cv.notify_all();
    return {};
  }
  void close_input() override {}
  Result<std::string> read_line(std::chrono::milliseconds timeout) override {
    std::unique_lock lock(m_mutex);
    std::size_t nl = std::string::npos;
    bool ok = m_cv.wait_for(lock, timeout, [&] { return (nl = m_stdout.find('\n')) != std::string::npos || m_eof; });
    if (nl == std::string::npos) {
      if (!ok) return make_error(ErrorCode::timeout, "no answer within " + std::to_string(timeout.count()) + " ms");
      return make_error(ErrorCode::process, "the process ended before answering");
    }
    std::string line = m_stdout.substr(0, nl);
    m_stdout.erase(0, nl + 1);
    return line;
  }
  Result<std::string> read_exact(std::size_t n, std::chrono::milliseconds timeout) override {
    std::unique_lock lock(m_mutex);
    bool ok = m_cv.wait_for(lock, timeout, [&] { return m_stdout.size() >= n || m_eof; });
    if (m_stdout.size() < n) {
      if (!ok) return make_error(ErrorCode::timeout, "the agent did not answer in time");
      return make_error(ErrorCode::process, "the agent's output ended mid-answer");
    }
    std::string bytes = m_stdout.substr(0, n);
    m_stdout.erase(0, n);
    return bytes;
  }
  bool running() override { return !m_eof; }
  std::optional<int> exit_code() override {
    return m_eof ? std::optional<int>(m_script->exits_at_once ? 1 : 0) : std::nullopt;
  }
  std::string stderr_text() override { return m_script->stderr_text; }
  void finish(std::chrono::milliseconds) override {
    std::lock_guard lock(m_mutex);
    m_script->finished = true;
    m_eof = true;
    m_cv.notify_all();
  }

 private:
  void answer_frames() {
    for (;;) {
      auto payload = m_decoder.next();
      if (!payload || !*payload) return;
      auto request = agent_api::parse_frame_request(**payload);
      if (!request) return;
      m_script->frame_paths.push_back(request->path);
      if (m_script->silent_paths.count(request->path)) continue;
      agent_api::FrameResponse response;
      response.id = request->id;
      auto it = m_script->answers.find(request->path);
      if (it == m_script->answers.end()) {
        response.status = 404;
        response.body = {{"error", "no such route"}};
      } else {
        response.status = it->second.first;
        response.body = it->second.second;
      }
      m_stdout += agent_api::encode_frame(agent_api::to_payload(response));
    }
  }

  std::shared_ptr<AgentChildScript> m_script;
  agent_api::FrameDecoder m_decoder;
  std::mutex m_mutex;
  std::condition_variable m_cv;
  std::string m_stdout;
  bool m_eof = false;
  bool m_token_seen = false;
};

// Hands out the scripted children in order; a start past the script is an error.
class ScriptedLauncher final : public agent_client::ChildLauncher {
 public:
  explicit ScriptedLauncher(std::vector<std::shared_ptr<AgentChildScript>> children)
      : m_children(children.begin(), children.end()) {}
  Result<std::unique_ptr<agent_client::ChildChannel>> start(const std::vector<std::string>& argv,
                                                            const std::map<std::string, std::string>&) override {
    ++m_starts;
    if (m_children.empty()) return make_error(ErrorCode::process, "no more scripted children");
    auto script = m_children.front();
    m_children.pop_front();
    script->argv = argv;
    return std::unique_ptr<agent_client::ChildChannel>(std::make_unique<ScriptedAgentChild>(script));
  }
  int starts() const { return m_starts; }

 private:
  std::deque<std::shared_ptr<AgentChildScript>> m_children;
  int m_starts = 0;
};

// 127.0.0.1 as the test wants it: our agent (proves the token), nothing (connection refused), or an
// impostor (a wrong proof). Records every request that would have carried the token.
class FakeLoopback final : public agent_client::LoopbackConnector {
 public:
  enum class Mode { agent, dead_port, impostor };
  explicit FakeLoopback(Mode mode) : m_mode(mode) {}

  std::unique_ptr<agent_client::LoopbackTransport> connect(int port, const std::string& token) override {
    ports.push_back(port);
    return std::make_unique<Transport>(*this, token);
  }

  std::vector<int> ports;
  std::vector<std::string> requests_with_token;  // paths sent over "HTTP" with the bearer token

 private:
  class Transport final : public agent_client::LoopbackTransport {
   public:
    Transport(FakeLoopback& owner, std::string token) : m_owner(owner), m_token(std::move(token)) {}
    const char* name() const override { return "http"; }
    Result<agent_client::AgentReply> request(const std::string&, const std::string& path, const nlohmann::json&,
                                             std::chrono::milliseconds) override {
      m_owner.requests_with_token.push_back(path);
      return agent_client::AgentReply{200, {{"via", "http"}}};
    }
    Result<std::string> challenge(const std::string& nonce, std::chrono::milliseconds) override {
      switch (m_owner.m_mode) {
        case Mode::agent:
          return agent_api::challenge_proof(m_token, nonce);
        case Mode::dead_port:
          return make_error(ErrorCode::io, "the challenge on 127.0.0.1: Could not establish connection");
        case Mode::impostor:
          return std::string(64, '0');
      }
      return std::string();
    }

   private:
    FakeLoopback& m_owner;
    std::string m_token;
  };
  Mode m_mode;
};

}  // namespace tfwsl::test
