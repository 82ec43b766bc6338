#pragma once
// The items to copy again (a batch's syncfs failed under them): filled by the committer, drained by
// the workers before they take a new item, from any thread.

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace tfwsl::dataset::import_detail {

struct RetryItem {
  std::size_t item = 0;  // index into the scan's items
  int attempts = 0;      // attempts so far
};

class RetryQueue {
 public:
  void push(RetryItem retry) {
    std::lock_guard lock(m_mutex);
    m_items.push_back(retry);
  }
  std::optional<RetryItem> pop() {
    std::lock_guard lock(m_mutex);
    if (m_items.empty()) return std::nullopt;
    RetryItem retry = m_items.front();
    m_items.pop_front();
    return retry;
  }
  bool empty() {
    std::lock_guard lock(m_mutex);
    return m_items.empty();
  }

 private:
  std::mutex m_mutex;
  std::deque<RetryItem> m_items;
};

}  // namespace tfwsl::dataset::import_detail
