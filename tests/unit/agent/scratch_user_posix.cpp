#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <string>
#include <thread>

#include "tests/support/test_environment.hpp"
#include "tests/unit/agent/scratch_user.hpp"

namespace tfwsl::test {
namespace {

// useradd and userdel take /etc/passwd's lock: another test (or helper) may hold it for a moment.
bool run_with_retries(const std::string& command) {
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (std::system(command.c_str()) == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
  }
  return false;
}

// Whether every folder from / down to `folder` is root's and writable by nobody else: a venv below
// it counts as "a folder only root may write" (linux/provision/venv_writer.hpp).
bool root_only_path(const std::filesystem::path& folder) {
  std::filesystem::path at;
  for (const auto& part : std::filesystem::weakly_canonical(folder)) {
    at /= part;
    struct stat st {};
    if (::stat(at.c_str(), &st) != 0 || st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)) != 0) return false;
  }
  return true;
}

// Next to the test binary when that path is root-only; else (a clone under /tmp, whose 1777 makes
// every folder below it writable by others) under /var/lib, which is.
std::filesystem::path scratch_parent() {
  return root_only_path(binary_dir()) ? binary_dir() : std::filesystem::path("/var/lib");
}

}  // namespace

ScratchUser::ScratchUser() {
  if (::geteuid() != 0) skip("needs root to create a real unprivileged user (useradd); run the tests as root");
  if (::access("/usr/sbin/useradd", X_OK) != 0 || ::access("/usr/sbin/userdel", X_OK) != 0)
    skip("useradd/userdel (passwd package) are missing");
  static std::atomic<int> counter{0};
  const std::string name = "tfwslt" + std::to_string(::getpid() % 100000) + "x" + std::to_string(counter++);
  const std::filesystem::path parent = scratch_parent();
  std::string pattern = (parent / "tfwsl-scratch-user-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed under " + parent.string());
  m_base = pattern;
  ::chmod(m_base.c_str(), 0755);
  const auto home = m_base / "home";
  if (!run_with_retries("/usr/sbin/useradd --no-create-home --user-group --shell /usr/sbin/nologin --home-dir '" +
                        home.string() + "' " + name + " >/dev/null 2>&1"))
    throw std::runtime_error("useradd " + name + " failed");
  const passwd* pw = ::getpwnam(name.c_str());
  if (!pw) throw std::runtime_error("useradd made no " + name);
  m_user = {pw->pw_name, pw->pw_uid, pw->pw_gid, pw->pw_dir};
  std::filesystem::create_directory(home);
  ::chmod(home.c_str(), 0755);
  give(home);
}

ScratchUser::~ScratchUser() {
  run_with_retries("/usr/sbin/userdel " + m_user.name + " >/dev/null 2>&1");
  std::error_code ec;
  std::filesystem::remove_all(m_base, ec);
}

std::filesystem::path ScratchUser::root_folder(const std::string& name, unsigned mode) const {
  const auto dir = m_base / name;
  std::filesystem::create_directories(dir);
  ::chmod(dir.c_str(), mode);
  return dir;
}

void ScratchUser::give(const std::filesystem::path& path) const {
  if (::lchown(path.c_str(), m_user.uid, m_user.gid) != 0) throw std::runtime_error("lchown failed: " + path.string());
}

}  // namespace tfwsl::test
