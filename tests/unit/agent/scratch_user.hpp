#pragma once
// A real unprivileged user for the privilege tests: created with useradd under a fresh name, with
// its home in a new root-owned 0755 folder next to the test binary, or under /var/lib when the
// binary lies below a folder others may write (a clone under /tmp, whose 1777 would make every
// folder below it "writable by others"), and removed again (userdel, the folder)
// when the test ends. Without root, or without useradd, the test binary ends with exit 77 after
// saying why: such a test is skipped, never passed.

#include <filesystem>

#include "linux/provision/step_process.hpp"

namespace tfwsl::test {

class ScratchUser {
 public:
  ScratchUser();
  ~ScratchUser();
  ScratchUser(const ScratchUser&) = delete;
  ScratchUser& operator=(const ScratchUser&) = delete;

  const provision::DistroUser& user() const { return m_user; }
  // The root-owned 0755 folder that holds the home; tests add their root-only folders here.
  const std::filesystem::path& base() const { return m_base; }
  // A new folder under base(), owned by root with `mode`.
  std::filesystem::path root_folder(const std::string& name, unsigned mode) const;
  // Makes `path` (and, for a folder, nothing below it) the user's, without following a link.
  void give(const std::filesystem::path& path) const;

 private:
  provision::DistroUser m_user;
  std::filesystem::path m_base;
};

}  // namespace tfwsl::test
