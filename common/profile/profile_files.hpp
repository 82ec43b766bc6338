#pragma once
// The filesystem port of profile discovery (choose_profile): what it needs to know of a folder or
// a file on its way up from the current folder. The real one is stat(2) and lstat(2) on POSIX
// (profile_files_posix.cpp); on Windows (profile_files_windows.cpp) the owners come from
// GetSecurityInfo (common/util/file_owner.hpp) and there is no device, so the climb stops only at
// the home folder and at the drive's root (docs/profiles.md, "Which profile"). Tests use a fake.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "common/util/file_owner.hpp"

namespace tfwsl {

struct ProfilePathFacts {
  bool exists = false;
  bool regular_file = false;  // a link to one counts, as the loader reads through it
  // Who owns it: the entry itself and, for a link, the file it names too (each must be trusted:
  // another user's link to root's file is theirs, as is a file of theirs that a link of yours names).
  // Empty where owners cannot be read.
  std::vector<AccountId> owners;
  std::optional<std::uint64_t> device;  // the filesystem it lies on (st_dev); nothing where unknown
};

class ProfileFiles {
 public:
  virtual ~ProfileFiles() = default;
  virtual ProfilePathFacts facts(const std::filesystem::path& path) const = 0;
  // Who runs this (the effective uid; the token's user); nothing where it cannot be told.
  virtual std::optional<AccountId> current_user() const = 0;
};

// This machine's.
const ProfileFiles& system_profile_files();

}  // namespace tfwsl
