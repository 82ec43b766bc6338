#pragma once
// The filesystem port of profile discovery (choose_profile): what it needs to know of a folder or
// a file on its way up from the current folder. The real one is stat(2) on POSIX
// (profile_files_posix.cpp); on Windows (profile_files_windows.cpp) it reports neither an owner
// nor a device, so there a file's owner is not checked and the climb stops only at the home folder
// and at the drive's root (docs/profiles.md, "Which profile"). Tests use a fake.

#include <cstdint>
#include <filesystem>
#include <optional>

namespace tfwsl {

struct ProfilePathFacts {
  bool exists = false;
  bool regular_file = false;  // a link to one counts, as the loader reads through it
  // The owner's uid (of a link: its own owner when that is neither the user nor root, else its
  // target's); nothing where owners are not checked.
  std::optional<std::uint64_t> owner;
  std::optional<std::uint64_t> device;  // the filesystem it lies on (st_dev); nothing where unknown
};

class ProfileFiles {
 public:
  virtual ~ProfileFiles() = default;
  virtual ProfilePathFacts facts(const std::filesystem::path& path) const = 0;
  // Who runs this (the effective uid); nothing where owners are not checked.
  virtual std::optional<std::uint64_t> current_user() const = 0;
};

// This machine's.
const ProfileFiles& system_profile_files();

}  // namespace tfwsl
