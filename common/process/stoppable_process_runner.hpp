#pragma once
// The real process runner with a stop: once `stop` is requested, a child it is running or starts is
// ended as at its timeout (outcome.timed_out). The agent's probes run through one, so that the agent
// stopping ends a probe run in flight (a slow TensorFlow import, a hung driver call in the library
// child) at once instead of waiting for its limit. Implemented in system_process_runner.cpp.

#include <stop_token>
#include <utility>

#include "common/process/process_runner.hpp"

namespace tfwsl {

class StoppableProcessRunner final : public ProcessRunner {
 public:
  explicit StoppableProcessRunner(std::stop_token stop) : m_stop(std::move(stop)) {}
  Result<ProcessOutcome> run(const ProcessRequest& request) override;

 private:
  std::stop_token m_stop;
};

}  // namespace tfwsl
