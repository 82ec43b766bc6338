#include "linux/provision/provision_executor.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <string>

#include "linux/provision/distro_path.hpp"
#include "linux/provision/distro_step_checks.hpp"
#include "linux/provision/dpkg_state.hpp"
#include "linux/provision/provision_journal.hpp"
#include "linux/provision/state_folder.hpp"
#include "linux/provision/step_apply.hpp"

namespace tfwsl::provision {
namespace {

// The state folder's lock, held for the whole run; the kernel drops it when the process dies.
class RunLock {
 public:
  ~RunLock() {
    if (m_fd >= 0) ::close(m_fd);
  }
  Status acquire(const std::filesystem::path& file) {
    m_fd = open_state_file(file, O_RDWR | O_CREAT);
    if (m_fd < 0) {
      const bool link = errno == ELOOP;
      return make_error(ErrorCode::io,
                        fmt::format("cannot open {}: {}; nothing was changed", file.string(),
                                    link ? "it is a symbolic link, which root never follows there (remove it)"
                                         : std::strerror(errno)));
    }
    if (::flock(m_fd, LOCK_EX | LOCK_NB) != 0) {
      char buf[32] = {};
      const ssize_t got = ::pread(m_fd, buf, sizeof buf - 1, 0);
      std::string pid(buf, got > 0 ? static_cast<std::size_t>(got) : 0);
      pid = pid.substr(0, pid.find('\n'));
      return make_error(ErrorCode::conflict,
                        fmt::format("another provision run is in progress (PID {})", pid.empty() ? "?" : pid),
                        "wait for it to finish");
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    (void)!::ftruncate(m_fd, 0);
    (void)!::pwrite(m_fd, pid.data(), pid.size(), 0);
    return {};
  }

 private:
  int m_fd = -1;
};

std::string run_id() {
  std::time_t now = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
  return fmt::format("{}-{}", buf, ::getpid());
}

class Executor {
 public:
  Executor(const ProvisionPlan& plan, const ExecutorSettings& s)
      : m_plan(plan), m_s(s), m_journal(distro_path_at(s.root, s.state_dir.string()) / "journal.jsonl") {}

  Result<ProvisionRecap> run() {
    // A check of another root (a probe root) writes nothing, here or there: no state folder, no
    // lock file; it only reads that root's journal. Everything else takes the state folder's lock.
    if (!m_s.check_only || !observes_other_root(m_s.root)) {
      TFWSL_TRY_STATUS(prepare_state_folder(m_s.state_dir));
      TFWSL_TRY_STATUS(m_lock.acquire(m_s.state_dir / "lock"));
    }
    if (auto interrupted = m_journal.last_interruption())
      m_recap.interrupted_step = interrupted->step.empty() ? "-" : interrupted->step;
    m_recap.check_mode = m_s.check_only;
    m_recap.run = run_id();
    m_recap.state_dir = m_s.state_dir.string();
    m_context = CheckContext{&m_plan, m_s.root, &m_s.user, &m_s.policy, m_s.tf_timeout, std::nullopt, m_s.processes};
    if (!m_s.check_only) m_journal.run_started(m_recap.run);
    std::string failed_step;
    for (const auto& step : m_plan.distro_steps) {
      if (!failed_step.empty()) {
        m_recap.steps.push_back({std::string(step.definition->id), std::string(step.definition->title),
                                 StepResult::skipped, "not run: " + failed_step + " failed", ""});
        continue;
      }
      m_recap.steps.push_back(run_step(step));
      if (m_recap.steps.back().result == StepResult::failed) failed_step = m_recap.steps.back().id;
    }
    if (!m_s.check_only) m_journal.run_ended();
    return std::move(m_recap);
  }

 private:
  void progress(const std::string& step, const char* phase) const {
    if (m_s.progress) m_s.progress({step, phase, "", std::nullopt, std::nullopt});
  }

  StepRecord run_step(const PlannedStep& step) {
    StepRecord record{std::string(step.definition->id), std::string(step.definition->title), StepResult::ok, "", ""};
    progress(record.id, "checking");
    const StepCheck before = check_distro_step(step, m_context);
    record.message = before.message;
    if (before.done) return record;
    const bool check_only_step = step.definition->check_only || record.id == "tensorflow.verify";
    if (check_only_step) {
      record.result = StepResult::failed;
      return record;
    }
    // What the apply would refuse, the check reports as the failure it will be (not under a probe
    // root: the venv's folders are judged on this machine, where apply runs).
    if (const Status refused = observes_other_root(m_s.root) ? Status{} : step_refusal(step, m_plan, m_s.user);
        !refused) {
      record.result = StepResult::failed;
      record.message = step_failure_text(refused.error());
      return record;
    }
    if (m_s.check_only) {
      record.result = StepResult::changed;
      record.message = "would change: " + before.message + " -> " + step.changes;
      return record;
    }
    return apply(step, std::move(record));
  }

  StepRecord apply(const PlannedStep& step, StepRecord record) {
    progress(record.id, "applying");
    const auto log = m_s.state_dir / "logs" / fmt::format("{}-{}.log", m_recap.run, record.id);
    m_journal.step_started(record.id);
    ApplyContext apply{&m_plan,       &m_s.user,           {log, m_s.state_dir / "processes.jsonl"}, m_s.root,
                       m_s.lock_wait, m_s.command_timeout, m_context.tf ? &*m_context.tf : nullptr,  &m_apt_refresh,
                       m_s.progress};
    const Status applied = apply_distro_step(step, apply);
    std::error_code ec;
    if (std::filesystem::exists(log, ec)) record.log = log.string();
    m_context.tf.reset();  // something changed: the next TensorFlow check probes again
    if (!applied) {
      record.result = StepResult::failed;
      record.message = step_failure_text(applied.error());
    } else {
      const StepCheck after = check_distro_step(step, m_context);
      record.result = after.done ? StepResult::changed : StepResult::failed;
      record.message = after.done ? "was: " + record.message + "; now: " + after.message
                                  : "applied, but the check still fails: " + after.message;
    }
    m_journal.step_ended(record.id, to_string(record.result));
    return record;
  }

  const ProvisionPlan& m_plan;
  const ExecutorSettings& m_s;
  ProvisionJournal m_journal;
  RunLock m_lock;
  CheckContext m_context;
  AptRefreshState m_apt_refresh;  // `apt-get update` once per sources state in this run
  ProvisionRecap m_recap;
};

}  // namespace

Result<ProvisionRecap> run_distro_steps(const ProvisionPlan& plan, const ExecutorSettings& settings) {
  // An apply would run its commands on this machine while its checks read another one.
  if (!settings.check_only && observes_other_root(settings.root))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("the distro under {} can only be checked here", settings.root.string()));
  return Executor(plan, settings).run();
}

}  // namespace tfwsl::provision
