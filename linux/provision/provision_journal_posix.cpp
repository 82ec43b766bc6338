#include <fcntl.h>
#include <unistd.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "linux/provision/provision_journal.hpp"
#include "linux/provision/state_folder.hpp"

namespace tfwsl::provision {

std::optional<Interruption> ProvisionJournal::last_interruption() const {
  // Read through the state folder's no-link open: a journal that is a link reads as empty.
  std::string text;
  if (const int fd = open_state_file(m_file, O_RDONLY); fd >= 0) {
    char buf[8192];
    for (ssize_t got; (got = ::read(fd, buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(got));
    ::close(fd);
  }
  std::istringstream in(text);
  std::optional<Interruption> open;
  std::string line;
  while (std::getline(in, line)) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) continue;  // a line cut by the kill
    const std::string event = j.value("event", "");
    if (event == "run-start")
      open = Interruption{j.value("run", ""), ""};
    else if (event == "run-end")
      open.reset();
    else if (open && event == "step-start")
      open->step = j.value("step", "");
    else if (open && event == "step-end")
      open->step.clear();
  }
  return open;
}

void ProvisionJournal::run_started(const std::string& run) {
  m_run = run;
  append("run-start", "", "");
}
void ProvisionJournal::step_started(const std::string& step) { append("step-start", step, ""); }
void ProvisionJournal::step_ended(const std::string& step, const std::string& result) {
  append("step-end", step, result);
}
void ProvisionJournal::run_ended() { append("run-end", "", ""); }

void ProvisionJournal::append(const std::string& event, const std::string& step, const std::string& result) {
  nlohmann::json j = {{"run", m_run}, {"event", event}};
  if (!step.empty()) j["step"] = step;
  if (!result.empty()) j["result"] = result;
  const std::string line = j.dump() + "\n";
  // One write per line and fdatasync: a line is either there whole or not at all.
  const int fd = open_state_file(m_file, O_WRONLY | O_APPEND | O_CREAT);
  if (fd < 0) return;
  (void)!::write(fd, line.data(), line.size());
  ::fdatasync(fd);
  ::close(fd);
}

}  // namespace tfwsl::provision
