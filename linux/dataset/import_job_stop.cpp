#include "linux/dataset/import_job_stop.hpp"

#include <fmt/format.h>

#include <cerrno>
#include <utility>

#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset::import_detail {

void JobStop::fail(ErrorCode code, const std::string& path, const std::string& doing, int error) {
  std::lock_guard lock(m_mutex);
  if (m_cause || m_refusal) return;
  if (error == ENOSPC || error == EDQUOT) code = ErrorCode::no_space;
  std::string what = path.empty() ? doing : fmt::format("{} '{}'", doing, display_path(path));
  m_cause = StopCause{code, what, errno_text(error), error == EIO || error == EROFS};
  m_failed = true;
}

void JobStop::refuse(std::string message) {
  std::lock_guard lock(m_mutex);
  if (m_cause || m_refusal) return;
  m_refusal = Error{ErrorCode::invalid_input, std::move(message), {}, {}};
  m_failed = true;
}

Error JobStop::error(const StopState& state) const {
  std::lock_guard lock(m_mutex);
  if (m_refusal) return *m_refusal;
  return Error{m_cause->code, stop_message(*m_cause, state), m_cause->error_text, {}};
}

}  // namespace tfwsl::dataset::import_detail
