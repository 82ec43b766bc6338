#pragma once
// Whether the job is stopping, and why: a cancel, a full disk or an I/O error (described once the
// job has wound down, import_stop.hpp), or a refusal found mid-run (an overlap). The first cause
// wins; every phase asks stopping() between files.

#include <atomic>
#include <mutex>
#include <optional>
#include <string>

#include "common/core/error.hpp"
#include "linux/dataset/import_stop.hpp"
#include "linux/dataset/import_types.hpp"

namespace tfwsl::dataset::import_detail {

class JobStop {
 public:
  explicit JobStop(const CancelToken& cancel) : m_cancel(cancel) {}

  // A full disk or an I/O error on `path` ("" for none) while `doing`; `error` is the errno.
  void fail(ErrorCode code, const std::string& path, const std::string& doing, int error);
  // Anything else that must stop the job (an overlap found mid-run): invalid_input.
  void refuse(std::string message);
  bool stopping() const { return m_cancel.cancelled() || m_failed.load(); }
  bool failed() const { return m_failed.load(); }
  bool cancelled() const { return m_cancel.cancelled(); }
  // Once every worker has stopped and the last batch is committed, so that the counts are final.
  Error error(const StopState& state) const;

 private:
  const CancelToken& m_cancel;
  std::atomic<bool> m_failed{false};
  mutable std::mutex m_mutex;
  std::optional<StopCause> m_cause;  // a full disk or an I/O error
  std::optional<Error> m_refusal;    // any other stop
};

}  // namespace tfwsl::dataset::import_detail
