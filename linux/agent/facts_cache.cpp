#include "linux/agent/agent_context.hpp"

namespace tfwsl::agent {

FactsCache::Entry FactsCache::get(const linux_checks::ProbeEnvironment& env, bool refresh) {
  std::lock_guard lock(m_mutex);
  if (m_entry && !refresh) {
    auto copy = *m_entry;
    copy.cached = true;
    return copy;
  }
  m_entry = Entry{linux_checks::gather_facts(env), std::chrono::system_clock::now(), false};
  return *m_entry;
}

}  // namespace tfwsl::agent
