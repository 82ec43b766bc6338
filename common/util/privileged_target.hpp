#pragma once
// The one rule for a privileged run (root; an elevated administrator or SYSTEM: DSC, Intune and
// Ansible run tfwsl so) that reads, writes or restores a file in a folder another account owns,
// such as root changing a user's .wslconfig. The user owns that folder, so every name in it is
// theirs to point anywhere: followed by a privileged writer, a link would rewrite a file the user
// may not touch (a root-only file), leave a backup and a lock beside it, or copy its text into the
// user's own file. Under the rule:
//   - the file itself is never followed if it is a link: refused by name;
//   - a link on the way to it owned by neither this account nor the folder's owner is refused by name;
//   - what is written (the file, its backup, the lock beside it) gets the old file's owner (a new
//     file: the folder owner's); the mode is kept by the writers (atomic_file.hpp);
//   - only backups that are regular files owned by that owner count (wslconfig_backups.hpp).
// An unprivileged run, or a privileged one in its own folder, is not guarded: a user's own link to
// their own file is theirs to have, and is written through as before.
//
// What is not closed: the folders are judged by path before the writers open them, so a folder of
// the user's swapped for a link between the two is followed (the usual home folder, /home/USER or
// C:\Users\USER, lies in a folder only the system may change, so its own name cannot be swapped).

#include <filesystem>
#include <optional>

#include "common/core/error.hpp"
#include "common/util/file_owner.hpp"

namespace tfwsl {

struct WriteOwnership {
  bool guarded = false;            // privileged, in a folder another account owns: the rule applies
  std::optional<AccountId> owner;  // guarded: who what is written must belong to
};

// Judges `path` as given (before it is read, locked or written) for this process. A refusal is
// ErrorCode::permission and names the link and the fix.
Result<WriteOwnership> judge_write_target(const std::filesystem::path& path);

}  // namespace tfwsl
