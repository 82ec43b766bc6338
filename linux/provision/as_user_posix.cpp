#include <fcntl.h>
#include <fmt/format.h>
#include <grp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "common/process/contained_child.hpp"
#include "linux/provision/as_user.hpp"

namespace tfwsl::provision {
namespace {

std::size_t thread_count() {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = std::filesystem::directory_iterator("/proc/self/task", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    ++n;
  return n;
}

// Groups first (setgroups needs root), then the gid, then the uid; then prove root cannot come back.
bool drop_to(const DistroUser& user, const std::vector<gid_t>& groups) {
  if (::setgroups(groups.size(), groups.data()) != 0 || ::setgid(user.gid) != 0 || ::setuid(user.uid) != 0)
    return false;
  if (::getuid() != user.uid || ::geteuid() != user.uid || ::getgid() != user.gid || ::getegid() != user.gid)
    return false;
  return ::setuid(0) != 0;
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

[[noreturn]] void child(const DistroUser& user, const std::vector<gid_t>& groups, pid_t agent, int report_fd,
                        const std::function<Status()>& work) {
  if (!drop_to(user, groups)) {
    write_all(report_fd, nlohmann::json{{"code", static_cast<int>(ErrorCode::permission)},
                                        {"message", fmt::format("cannot become user {}", user.name)}}
                             .dump());
    ::_exit(2);
  }
  die_with(agent);  // after the uid change, which clears PR_SET_PDEATHSIG; gone already: stop here
  Status done = make_error(ErrorCode::internal, "the work threw");
  try {
    done = work();
  } catch (const std::exception& e) {
    done = make_error(ErrorCode::internal, "the work as the user failed", e.what());
  }
  if (done) ::_exit(0);
  write_all(report_fd, nlohmann::json{{"code", static_cast<int>(done.error().code)},
                                      {"message", done.error().message},
                                      {"detail", done.error().detail}}
                           .dump());
  ::_exit(1);
}

Status read_report(int fd, pid_t pid, const DistroUser& user) {
  std::string text;
  char buf[4096];
  while (true) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    text.append(buf, static_cast<std::size_t>(n));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  auto doc = nlohmann::json::parse(text, nullptr, false);
  if (doc.is_object() && doc.value("message", "") != "") {
    const auto code =
        doc["code"].is_number_integer() ? static_cast<ErrorCode>(doc["code"].get<int>()) : ErrorCode::permission;
    return make_error(code, doc.value("message", ""), doc.value("detail", ""));
  }
  return make_error(ErrorCode::internal,
                    fmt::format("the work as user {} ended without a report (status {})", user.name, status));
}

}  // namespace

std::vector<gid_t> supplementary_groups(const DistroUser& user) {
  std::vector<gid_t> groups(64);
  int count = static_cast<int>(groups.size());
  if (::getgrouplist(user.name.c_str(), user.gid, groups.data(), &count) < 0) {
    groups.resize(static_cast<std::size_t>(std::max(count, 0)));
    count = static_cast<int>(groups.size());
    if (count == 0 || ::getgrouplist(user.name.c_str(), user.gid, groups.data(), &count) < 0) count = 0;
  }
  groups.resize(static_cast<std::size_t>(std::max(count, 0)));
  if (std::find(groups.begin(), groups.end(), user.gid) == groups.end()) groups.push_back(user.gid);
  return groups;
}

Status run_as_user(const DistroUser& user, const std::function<Status()>& work) {
  if (::geteuid() != 0) {
    if (user.uid == ::geteuid()) return work();
    return make_error(ErrorCode::permission, fmt::format("writing as {} needs root", user.name),
                      "run tfwsl-agent provision as root, or as that user");
  }
  if (user.uid == 0) return work();
  if (const auto threads = thread_count(); threads != 1)
    return make_error(ErrorCode::internal,
                      fmt::format("cannot work as {} while the agent runs {} threads", user.name, threads));
  const auto groups = supplementary_groups(user);
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return make_error(ErrorCode::process, "pipe failed", std::strerror(errno));
  const pid_t agent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    ::close(pipe_fds[0]);
    ::close(pipe_fds[1]);
    return make_error(ErrorCode::process, "fork failed", std::strerror(errno));
  }
  if (pid == 0) {
    ::close(pipe_fds[0]);
    child(user, groups, agent, pipe_fds[1], work);
  }
  ::close(pipe_fds[1]);
  Status out = read_report(pipe_fds[0], pid, user);
  ::close(pipe_fds[0]);
  return out;
}

}  // namespace tfwsl::provision
