#pragma once
// A ProcessRunner for tests: records every request and answers from a script of canned outcomes,
// matched on an argv prefix (the first matching rule wins; unmatched calls are not_found errors,
// like a missing program).

#include <functional>
#include <mutex>
#include <vector>

#include "common/process/process_runner.hpp"

namespace tfwsl::test {

class RecordingProcessRunner final : public ProcessRunner {
 public:
  using Responder = std::function<Result<ProcessOutcome>(const ProcessRequest&)>;

  // Answers requests whose argv starts with `prefix` with a fixed outcome.
  void on(std::vector<std::string> prefix, ProcessOutcome outcome) {
    on(std::move(prefix), [outcome](const ProcessRequest&) -> Result<ProcessOutcome> { return outcome; });
  }
  void on(std::vector<std::string> prefix, Responder responder) {
    std::lock_guard lock(m_mutex);
    m_rules.push_back({std::move(prefix), std::move(responder)});
  }

  Result<ProcessOutcome> run(const ProcessRequest& request) override {
    Responder responder;
    {
      std::lock_guard lock(m_mutex);
      m_requests.push_back(request);
      for (const auto& rule : m_rules) {
        if (rule.prefix.size() > request.argv.size()) continue;
        if (std::equal(rule.prefix.begin(), rule.prefix.end(), request.argv.begin())) {
          responder = rule.responder;
          break;
        }
      }
    }
    if (!responder) return make_error(ErrorCode::not_found, "program '" + request.argv.at(0) + "' not found in PATH");
    return responder(request);
  }

  std::vector<ProcessRequest> requests() const {
    std::lock_guard lock(m_mutex);
    return m_requests;
  }

 private:
  struct Rule {
    std::vector<std::string> prefix;
    Responder responder;
  };
  mutable std::mutex m_mutex;
  std::vector<Rule> m_rules;
  std::vector<ProcessRequest> m_requests;
};

}  // namespace tfwsl::test
