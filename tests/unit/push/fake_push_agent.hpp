#pragma once
// A scripted agent for the push's logic (win/push/push_agent.hpp): answers resolve, info and the
// facts from fields, runs a job through a list of states (one per status call), and records what it
// was asked (the roots of each connect, the job started, cancels).

#include <deque>
#include <memory>
#include <vector>

#include "win/push/push_agent.hpp"

namespace tfwsl::test {

struct FakePushWorld {
  std::optional<Error> resolve_error;
  std::string linux_path = "/mnt/d/data/imgs";
  std::string home = "/home/me";
  std::optional<std::uint64_t> distro_free = std::uint64_t{100} << 30;
  std::optional<Error> start_error;
  std::deque<push::JobState> states;  // answered by status() in order; the last one repeats
  std::deque<push::JobState> after_cancel;

  // Seen:
  std::vector<std::vector<std::string>> connects;
  std::vector<std::string> resolved;
  std::vector<push::JobStart> started;
  int cancels = 0;
  int status_calls = 0;
};

inline push::JobState job_state(const std::string& state, std::uint64_t done, std::uint64_t total) {
  push::JobState s;
  s.id = "7";
  s.status = *agent_api::parse_job_status(state);
  s.progress.phase = state == "running" ? agent_api::ImportPhase::copying : agent_api::ImportPhase::done;
  s.progress.files_total = total;
  s.progress.files_done = done;
  s.progress.files_copied = done;
  s.progress.bytes_total = total * 1000;
  s.progress.bytes_done = done * 1000;
  if (state == "succeeded") s.result = agent_api::ImportResult{};
  return s;
}

class FakePushAgent final : public push::PushAgent {
 public:
  explicit FakePushAgent(FakePushWorld& world) : m_world(world) {}
  std::string describe() const override { return "a fake agent"; }
  Result<agent_api::PathResolveResponse> resolve(const std::string& windows_path) override {
    m_world.resolved.push_back(windows_path);
    if (m_world.resolve_error) return tl::unexpected(*m_world.resolve_error);
    return agent_api::PathResolveResponse{m_world.linux_path, true, "drvfs"};
  }
  Result<agent_api::InfoResponse> info() override {
    agent_api::InfoResponse i;
    i.agent = "0.1.0";
    i.distro = "Ubuntu 22.04.3 LTS";  // PRETTY_NAME: what the agent says without WSL_DISTRO_NAME
    i.wsl = agent_api::WslKind::wsl2;
    i.home = m_world.home;
    return i;
  }
  Result<std::optional<std::uint64_t>> distro_free_bytes(std::string& why) override {
    if (!m_world.distro_free) why = "statvfs failed";
    return m_world.distro_free;
  }
  Result<push::JobState> start(const push::JobStart& job) override {
    m_world.started.push_back(job);
    if (m_world.start_error) return tl::unexpected(*m_world.start_error);
    return job_state("running", 0, 10);
  }
  Result<push::JobState> status(const std::string&) override {
    ++m_world.status_calls;
    auto& list = m_world.cancels > 0 && !m_world.after_cancel.empty() ? m_world.after_cancel : m_world.states;
    if (list.empty()) return make_error(ErrorCode::io, "connection refused");
    auto s = list.front();
    if (list.size() > 1) list.pop_front();
    return s;
  }
  Status cancel(const std::string&) override {
    ++m_world.cancels;
    return {};
  }

 private:
  FakePushWorld& m_world;
};

inline push::PushAgentConnector fake_connector(FakePushWorld& world) {
  return [&world](const std::vector<std::string>& roots) -> Result<std::unique_ptr<push::PushAgent>> {
    world.connects.push_back(roots);
    return std::unique_ptr<push::PushAgent>(std::make_unique<FakePushAgent>(world));
  };
}

}  // namespace tfwsl::test
