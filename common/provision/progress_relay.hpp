#pragma once
// tfwsl's side of the agent's progress: the agent's stderr read as it comes (in pieces, wherever
// they cut), each progress line (progress_event.hpp) handed on as an event; and the same stderr
// without those lines, for an error message that quotes what the agent said.

#include <functional>
#include <string>
#include <string_view>

#include "common/provision/output_lines.hpp"
#include "common/provision/progress_event.hpp"

namespace tfwsl::provision {

class ProgressRelay {
 public:
  explicit ProgressRelay(std::function<void(const ProgressEvent&)> sink) : m_sink(std::move(sink)) {}
  void feed(std::string_view piece);

 private:
  std::function<void(const ProgressEvent&)> m_sink;
  OutputLines m_lines;
};

std::string without_progress_lines(std::string_view err);

}  // namespace tfwsl::provision
