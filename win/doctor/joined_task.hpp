#pragma once
// One doctor source on a thread of its own that never outlives the object that owns it. The result can be awaited
// until a deadline, and the destructor joins. A source past its deadline is reported as timed out by
// the caller and then still waited for here, so it may keep using what the caller owns (the
// environment, the wsl.exe client, the process runner). That wait ends because every source is
// bounded by its own limits: each wsl.exe call and nvidia-smi.exe run has a process timeout, the
// bridge has its handshake and request timeouts.

#include <spdlog/spdlog.h>

#include <chrono>
#include <functional>
#include <future>
#include <optional>
#include <string>
#include <thread>

namespace tfwsl::doctor {

template <class T>
class JoinedTask {
 public:
  JoinedTask(std::string name, std::function<T()> fn) : m_name(std::move(name)) {
    std::packaged_task<T()> task(std::move(fn));
    m_future = task.get_future();
    m_thread = std::thread(std::move(task));
  }
  ~JoinedTask() {
    if (!m_thread.joinable()) return;
    if (m_future.valid() && m_future.wait_for(std::chrono::seconds(0)) != std::future_status::ready) {
      spdlog::info("{} is past its time limit; waiting for it to end (its own timeouts bound it)", m_name);
    }
    m_thread.join();
  }
  JoinedTask(const JoinedTask&) = delete;
  JoinedTask& operator=(const JoinedTask&) = delete;

  // The result if it is ready by `deadline`; nothing otherwise. Once only (a second call: nothing).
  std::optional<T> wait_until(std::chrono::steady_clock::time_point deadline) {
    if (!m_future.valid() || m_future.wait_until(deadline) != std::future_status::ready) return std::nullopt;
    return m_future.get();
  }

 private:
  std::string m_name;
  std::future<T> m_future;
  std::thread m_thread;
};

}  // namespace tfwsl::doctor
